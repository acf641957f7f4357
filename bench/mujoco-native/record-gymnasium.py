#!/usr/bin/env python3
"""Records Gymnasium's own MuJoCo v5 episodes on native MuJoCo through the official `mujoco` bindings.

    python record-gymnasium.py OUT_DIR FIRST_SEED N_EPISODES [--label tuning] [--cap STEPS] [TASK ...]

Run it in a virtual environment outside the repository holding the official wheel of the same
MuJoCo our WebAssembly build is (docs/mujoco.md, "Conformance on MuJoCo 3.14" says how):
`pip install mujoco==3.14.0 numpy imageio packaging cloudpickle farama-notifications`, and
Gymnasium's source on PYTHONPATH (Gymnasium@3f0476a8, version 1.4.0, exported with `git archive`).

It writes OUT_DIR/<task>.<label>.json.gz in the golden format of shared/golden/mujoco/README.md
(what tasks/mujoco-common/recording.ts reads): `gym.make(task)` with its defaults; even seeds act
uniformly at random (`action_space.seed(seed)`, then `action_space.sample()`), odd seeds run the
golden recorder's policy that keeps an episode alive (a posture controller for Hopper and Walker2d,
an LQR balancer for the pendulums, zero action elsewhere), so both endings appear. Every episode is
played to its end, so `episode_length` and `ending` are the whole episode's; with --cap only its
first STEPS steps are written (`recorded_steps`), which keeps a file at a few hundred KB. Floats
are float64 written in full (Python's repr).

The policies and the layout are those of shared/golden/mujoco/recorder/mujoco_golden.py, which ran
the same Gymnasium over Debian's MuJoCo 2.2.2 through a ctypes shim; this one needs no shim.
"""
import argparse
import gzip
import json
import os

import numpy as np

import gymnasium as gym
import mujoco

TASKS = [
    "Hopper-v5", "Walker2d-v5", "HalfCheetah-v5", "Ant-v5",
    "Swimmer-v5", "InvertedPendulum-v5", "InvertedDoublePendulum-v5", "Reacher-v5",
]
GYMNASIUM_COMMIT = os.environ.get("GYMNASIUM_COMMIT", "3f0476a8cc224dcce2167cc4b6971ae0f04d5cfc")


def flist(a):
    return [float(x) for x in np.asarray(a, dtype=np.float64).ravel()]


def jsonable(v):
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    if isinstance(v, np.ndarray):
        return flist(v) if v.ndim else float(v)
    return v


# ---------------------------------------------------------------------------------- policies --
def lqr_gain(model, qpos0, dt):
    """Discrete LQR about the upright pose, from finite differences of mj_forward's qacc (the golden recorder's)."""
    d = mujoco.MjData(model)
    nq, nv, nu = model.nq, model.nv, model.nu

    def acc(q, v, u):
        d.qpos[:] = q
        d.qvel[:] = v
        d.ctrl[:] = u
        mujoco.mj_forward(model, d)
        return d.qacc.copy()

    eps = 1e-6
    q0, v0, u0 = np.array(qpos0, dtype=np.float64), np.zeros(nv), np.zeros(nu)
    A = np.zeros((nq + nv, nq + nv))
    B = np.zeros((nq + nv, nu))
    a0 = acc(q0, v0, u0)
    for i in range(nq):
        q = q0.copy()
        q[i] += eps
        A[nq:, i] = (acc(q, v0, u0) - a0) / eps
    for i in range(nv):
        v = v0.copy()
        v[i] += eps
        A[nq:, nq + i] = (acc(q0, v, u0) - a0) / eps
    A[:nq, nq:] = np.eye(nv)
    for i in range(nu):
        u = u0.copy()
        u[i] += eps
        B[nq:, i] = (acc(q0, v0, u) - a0) / eps
    Ad, Bd = np.eye(nq + nv) + A * dt, B * dt
    Q, R = np.eye(nq + nv), np.eye(nu)
    P = Q.copy()
    for _ in range(20000):
        K = np.linalg.solve(R + Bd.T @ P @ Bd, Bd.T @ P @ Ad)
        Pn = Q + Ad.T @ P @ (Ad - Bd @ K)
        done = np.max(np.abs(Pn - P)) < 1e-12 * max(1.0, np.max(np.abs(P)))
        P = Pn
        if done:
            break
    return np.linalg.solve(R + Bd.T @ P @ Bd, Bd.T @ P @ Ad)


def long_policy(task, env):
    """The golden recorder's deterministic policy that keeps an episode alive, and its description."""
    u = env.unwrapped
    lo = env.action_space.low.astype(np.float64)
    hi = env.action_space.high.astype(np.float64)
    if task in ("InvertedPendulum-v5", "InvertedDoublePendulum-v5"):
        K = lqr_gain(u.model, u.init_qpos, u.dt)
        desc = ("lqr_balance: a = clip(-K @ [qpos - init_qpos, qvel]), K from discrete LQR (Q=I, R=I) "
                "of the finite-difference linearization at the upright pose")
        return (lambda: np.clip(-K @ np.concatenate([u.data.qpos - u.init_qpos, u.data.qvel]), lo, hi)), desc
    if task == "Hopper-v5":
        desc = "pd_posture: a = clip(-(5*(qpos[3:] - init_qpos[3:]) + 0.5*qvel[3:]))"
        return (lambda: np.clip(-(5.0 * (u.data.qpos[3:] - u.init_qpos[3:]) + 0.5 * u.data.qvel[3:]), lo, hi)), desc
    if task == "Walker2d-v5":
        desc = ("pd_posture_torso: a = -(1*(qpos[3:] - init_qpos[3:]) + 0.1*qvel[3:]); "
                "a[[0,3]] += -2*qpos[2] - 0.2*qvel[2]; clip")

        def pol():
            q, v = u.data.qpos, u.data.qvel
            a = -(1.0 * (q[3:] - u.init_qpos[3:]) + 0.1 * v[3:])
            a[[0, 3]] += -2.0 * q[2] - 0.2 * v[2]
            return np.clip(a, lo, hi)

        return pol, desc
    return (lambda: np.zeros_like(lo)), "zero: a = 0"


# --------------------------------------------------------------------------------- recording --
def record_episode(env, seed, keep_alive, cap):
    u = env.unwrapped
    env.action_space.seed(seed)
    obs, reset_info = env.reset(seed=seed)
    if seed % 2 == 0:
        policy = env.action_space.sample
        desc = "uniform_random: action_space.seed(seed); action_space.sample() each step (float32)"
    else:
        policy, desc = keep_alive
    ep = {
        "seed": seed,
        "policy": desc,
        "initial_qpos": flist(u.data.qpos),
        "initial_qvel": flist(u.data.qvel),
        "initial_qacc_warmstart": flist(u.data.qacc_warmstart),
        "initial_obs": flist(obs),
        "reset_info": {k: jsonable(v) for k, v in reset_info.items()},
        "steps": [],
    }
    length, total = 0, 0.0
    while True:
        action = np.asarray(policy(), dtype=np.float32)
        obs, reward, terminated, truncated, info = env.step(action)
        length += 1
        total += float(reward)
        if cap is None or length <= cap:
            ep["steps"].append({
                "action": flist(action),
                "qpos": flist(u.data.qpos),
                "qvel": flist(u.data.qvel),
                "qacc_warmstart": flist(u.data.qacc_warmstart),
                "obs": flist(obs),
                "reward": float(reward),
                "terminated": bool(terminated),
                "truncated": bool(truncated),
                "info": {k: jsonable(v) for k, v in info.items()},
            })
        if terminated or truncated:
            break
    ep["episode_length"] = length
    ep["ending"] = "terminated" if terminated else "truncated"
    ep["recorded_steps"] = len(ep["steps"])
    # The whole episode's return, where only its first steps are written.
    ep["episode_return"] = total
    return ep


def dump(doc):
    """Compact JSON, one step a line (json writes float.__repr__: full float64 precision)."""
    head = json.dumps({k: v for k, v in doc.items() if k != "episodes"}, separators=(",", ":"))[:-1] + ',"episodes":[\n'
    eps = []
    for ep in doc["episodes"]:
        e = json.dumps({k: v for k, v in ep.items() if k != "steps"}, separators=(",", ":"))[:-1] + ',"steps":[\n'
        eps.append(e + ",\n".join(json.dumps(st, separators=(",", ":")) for st in ep["steps"]) + "\n]}")
    return head + ",\n".join(eps) + "\n]}\n"


def record_task(task, first_seed, n, cap):
    env = gym.make(task)
    u = env.unwrapped
    keep_alive = long_policy(task, env)
    doc = {
        "source": {
            "gymnasium": f"Farama-Foundation/Gymnasium@{GYMNASIUM_COMMIT}",
            "gymnasium_version": gym.__version__,
            "mujoco": f"MuJoCo {mujoco.__version__} (the official mujoco wheel)",
            "numpy": np.__version__,
            "bindings": f"the official mujoco Python bindings {mujoco.__version__}",
            "recorder": "bench/mujoco-native/record-gymnasium.py",
        },
        "task": task,
        "make_kwargs": {},
        "state_note": ("qpos/qvel/qacc_warmstart are the MuJoCo state after each env step (na=0). Replay: set qpos and "
                       "qvel, mj_forward, set qacc_warmstart, ctrl=action, mj_step x frame_skip. Ant obs contact forces "
                       "are 0 at reset. reward_ctrl is float32-precision (float32 action, numpy>=2 promotion)."),
        "xml_file": os.path.basename(u.fullpath),
        "max_episode_steps": env.spec.max_episode_steps,
        "frame_skip": u.frame_skip,
        "timestep": float(u.model.opt.timestep),
        "dt": float(u.dt),
        "nq": u.model.nq,
        "nv": u.model.nv,
        "nu": u.model.nu,
        "na": u.model.na,
        "action_low": flist(env.action_space.low),
        "action_high": flist(env.action_space.high),
        "observation_structure": {k: jsonable(v) for k, v in getattr(u, "observation_structure", {}).items()},
        "episodes": [record_episode(env, s, keep_alive, cap) for s in range(first_seed, first_seed + n)],
    }
    if cap is not None:
        doc["note"] = (f"Each episode is played to its end; only its first {cap} steps are recorded "
                       "(recorded_steps; episode_length, ending and episode_return are the whole episode's).")
    env.close()
    return doc


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("first_seed", type=int)
    parser.add_argument("episodes", type=int)
    parser.add_argument("tasks", nargs="*", default=TASKS)
    parser.add_argument("--label", default="recorded", help="the file's middle name: <task>.<label>.json.gz")
    parser.add_argument("--cap", type=int, default=None, help="write only each episode's first STEPS steps")
    args = parser.parse_intermixed_args()
    os.makedirs(args.out_dir, exist_ok=True)
    for task in args.tasks:
        doc = record_task(task, args.first_seed, args.episodes, args.cap)
        path = os.path.join(args.out_dir, f"{task}.{args.label}.json.gz")
        # mtime=0: the same episodes give the same bytes.
        with open(path, "wb") as f:
            f.write(gzip.compress(dump(doc).encode(), compresslevel=9, mtime=0))
        summary = " ".join(f"{e['seed']}:{e['episode_length']}{e['ending'][:2]}" for e in doc["episodes"])
        print(f"{task}: {os.path.getsize(path) / 1e3:.0f} KB [{summary}]", flush=True)


if __name__ == "__main__":
    main()
