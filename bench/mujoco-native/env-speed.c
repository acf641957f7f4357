/*
 * Native MuJoCo's environment steps per CPU-second, the reference for the WebAssembly build
 * (bench/mujoco-speed.ts compiles and runs this against Debian's libmujoco-dev):
 *
 *   env-speed MODEL.xml FRAME_SKIP EPISODE_STEPS SECONDS [RNE_POST_CONSTRAINT] [KEYFRAME ACTIONS]
 *
 * 16 copies (one mjData each) of the model, uniformly random controls in each actuator's range,
 * FRAME_SKIP mj_step calls per environment step, and every EPISODE_STEPS steps a reset as
 * Gymnasium's (mj_resetData, uniform noise of 0.005 on qpos and qvel, mj_forward): the mean
 * episode length our environment measured under the same random actions. After one second of
 * warm-up, it prints {"stepsPerSecond": N} over SECONDS of this process's CPU time. With
 * RNE_POST_CONSTRAINT 1, each environment step ends with mj_rnePostConstraint, as Gymnasium's
 * does where the observation reads contact forces (Ant's cfrc_ext).
 *
 * A declared robot starts and is driven as its environment does: KEYFRAME (an index, -1 for none)
 * is the reset's keyframe (mj_resetDataKeyframe, then the same noise), and ACTIONS
 * ("actuator:offset:scale,...") maps uniformly random actions in [-1, 1] to ctrl = offset + scale *
 * action, clipped to the ctrlrange; actuators it does not name hold the keyframe's ctrl.
 */
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COPIES 16

static double cpu_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

static unsigned int state = 12345u;
static double uniform(void) { state = state * 1103515245u + 12345u; return state / 4294967296.0; }

#define MAX_ACTIONS 64

static int keyframe = -1;
static int n_actions = 0;
static int action_actuator[MAX_ACTIONS];
static double action_offset[MAX_ACTIONS], action_scale[MAX_ACTIONS];

static void reset(const mjModel* m, mjData* d) {
  if (keyframe >= 0) mj_resetDataKeyframe(m, d, keyframe);
  else mj_resetData(m, d);
  for (int i = 0; i < m->nq; i++) d->qpos[i] += 0.01 * uniform() - 0.005;
  for (int i = 0; i < m->nv; i++) d->qvel[i] += 0.01 * uniform() - 0.005;
  mj_forward(m, d);
}

static int rne_post_constraint = 0;

static long run(const mjModel* m, mjData** d, int frame_skip, int episode, double seconds, int* t) {
  long steps = 0;
  double start = cpu_seconds();
  while (cpu_seconds() - start < seconds) {
    for (int c = 0; c < COPIES; c++) {
      if (n_actions > 0) {
        for (int k = 0; k < n_actions; k++) {
          int u = action_actuator[k];
          double lo = m->actuator_ctrlrange[2 * u], hi = m->actuator_ctrlrange[2 * u + 1];
          double ctrl = action_offset[k] + action_scale[k] * (2 * uniform() - 1);
          d[c]->ctrl[u] = lo < hi ? (ctrl < lo ? lo : ctrl > hi ? hi : ctrl) : ctrl;
        }
      } else {
        for (int u = 0; u < m->nu; u++) {
          double lo = m->actuator_ctrlrange[2 * u], hi = m->actuator_ctrlrange[2 * u + 1];
          d[c]->ctrl[u] = lo + (hi - lo) * uniform();
        }
      }
      for (int k = 0; k < frame_skip; k++) mj_step(m, d[c]);
      if (rne_post_constraint) mj_rnePostConstraint(m, d[c]);
      if (++t[c] >= episode) { reset(m, d[c]); t[c] = 0; }
      steps++;
    }
  }
  return steps;
}

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6 && argc != 8) { fprintf(stderr, "usage: env-speed MODEL.xml FRAME_SKIP EPISODE_STEPS SECONDS [RNE_POST_CONSTRAINT] [KEYFRAME ACTIONS]\n"); return 2; }
  if (argc >= 6) rne_post_constraint = atoi(argv[5]);
  if (argc == 8) {
    keyframe = atoi(argv[6]);
    for (char* item = strtok(argv[7], ","); item != NULL && n_actions < MAX_ACTIONS; item = strtok(NULL, ",")) {
      if (sscanf(item, "%d:%lf:%lf", &action_actuator[n_actions], &action_offset[n_actions], &action_scale[n_actions]) == 3) n_actions++;
    }
  }
  char error[1000];
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof error);
  if (!m) { fprintf(stderr, "%s\n", error); return 1; }
  int frame_skip = atoi(argv[2]), episode = atoi(argv[3]);
  double seconds = atof(argv[4]);
  mjData* d[COPIES];
  int t[COPIES] = {0};
  for (int c = 0; c < COPIES; c++) { d[c] = mj_makeData(m); reset(m, d[c]); }
  run(m, d, frame_skip, episode, 1.0, t);
  double start = cpu_seconds();
  long steps = run(m, d, frame_skip, episode, seconds, t);
  printf("{\"stepsPerSecond\": %.1f, \"version\": \"%s\"}\n", steps / (cpu_seconds() - start), mj_versionString());
  for (int c = 0; c < COPIES; c++) mj_deleteData(d[c]);
  mj_deleteModel(m);
  return 0;
}
