/*
 * Native MuJoCo stepping a model as our environment steps it, for bench/declared-native.ts (which
 * compiles this against a native build and compares): one mjData, commands on stdin, one line of
 * numbers out per step, every double printed in full (%.17g).
 *
 *   step-native MODEL.xml FRAME_SKIP
 *
 *   R qpos[nq] qvel[nv]            a free run starts: mj_resetData, the state set, mj_forward
 *   C ctrl[nu]                     the run goes on: ctrl set, FRAME_SKIP x mj_step
 *   S qpos qvel qacc_warmstart ctrl  one step from a given state (mj_forward after qpos and qvel, then the warm start)
 *
 * After C and S it prints: qpos[nq] qvel[nv] qacc_warmstart[nv] ncon, where ncon is the largest
 * contact count over the step's sub-steps (0: no contact anywhere in the step).
 */
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>

static int read_doubles(double* out, int n) {
  for (int i = 0; i < n; i++) if (scanf("%lf", &out[i]) != 1) return 0;
  return 1;
}

static void step(const mjModel* m, mjData* d, int frame_skip) {
  int ncon = 0;
  for (int k = 0; k < frame_skip; k++) {
    mj_step(m, d);
    if (d->ncon > ncon) ncon = d->ncon;
  }
  for (int i = 0; i < m->nq; i++) printf("%.17g ", d->qpos[i]);
  for (int i = 0; i < m->nv; i++) printf("%.17g ", d->qvel[i]);
  for (int i = 0; i < m->nv; i++) printf("%.17g ", d->qacc_warmstart[i]);
  printf("%d\n", ncon);
}

int main(int argc, char** argv) {
  if (argc != 3) { fprintf(stderr, "usage: step-native MODEL.xml FRAME_SKIP\n"); return 2; }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof error);
  if (!m) { fprintf(stderr, "%s\n", error); return 1; }
  int frame_skip = atoi(argv[2]);
  mjData* d = mj_makeData(m);
  char command[2];
  while (scanf("%1s", command) == 1) {
    if (command[0] == 'R') {
      mj_resetData(m, d);
      if (!read_doubles(d->qpos, m->nq) || !read_doubles(d->qvel, m->nv)) return 3;
      mj_forward(m, d);
    } else if (command[0] == 'C') {
      if (!read_doubles(d->ctrl, m->nu)) return 3;
      step(m, d, frame_skip);
    } else if (command[0] == 'S') {
      if (!read_doubles(d->qpos, m->nq) || !read_doubles(d->qvel, m->nv)) return 3;
      mj_forward(m, d);
      if (!read_doubles(d->qacc_warmstart, m->nv) || !read_doubles(d->ctrl, m->nu)) return 3;
      step(m, d, frame_skip);
    } else return 3;
  }
  printf("version %s\n", mj_versionString());
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
