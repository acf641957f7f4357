"""Records episodes of a Gymnasium environment in the format `eureka conformance` replays.

Run it where Gymnasium is installed (pip install gymnasium), against the original environment you
port to a task folder, then check the port:

    python3 tasks/record-gymnasium.py CartPole-v1 cartpole.json --episodes 6
    npx eureka conformance --task CartPole-v1 cartpole.json

Your own environment: give its entry point (a class, or a factory taking no arguments) and the time
limit; and a policy that solves it (a function of the observation returning the action), so the
recording covers the episodes' ends too:

    python3 tasks/record-gymnasium.py MyTask-v0 mine.json --entry-point my_envs.task:MyEnv \
        --max-episode-steps 300 --policy my_envs.task:heuristic

Each episode: the reset seed, the internal state after reset (`env.unwrapped.state`, float64, when
the environment has one: then the port is replayed from it), the first observation, and every
step's action, state, observation, reward, terminated and truncated. Even episodes take uniformly
random actions (continuous ones up to 1.5x past the bounds, to test the port's clipping); odd ones
follow --policy when given, else repeat one random action for ten steps at a time, which reaches
farther than random noise does.
"""
import argparse
import importlib
import json

import gymnasium as gym
import numpy as np


def load(entry_point):
    module, name = entry_point.split(":")
    return getattr(importlib.import_module(module), name)


def make(args):
    if args.entry_point is None:
        return gym.make(args.task)
    return gym.wrappers.TimeLimit(load(args.entry_point)(), max_episode_steps=args.max_episode_steps)


def state_of(env):
    state = getattr(env.unwrapped, "state", None)
    return None if state is None else [float(x) for x in np.asarray(state, dtype=np.float64).ravel()]


def draw_action(env, rng):
    space = env.action_space
    if isinstance(space, gym.spaces.Discrete):
        return int(space.start + rng.integers(space.n))
    low, high = space.low.astype(np.float64), space.high.astype(np.float64)
    middle, half = (low + high) / 2, (high - low) / 2
    return [float(x) for x in rng.uniform(middle - 1.5 * half, middle + 1.5 * half)]


def record(env, seed, policy, solve=None):
    rng = np.random.default_rng(10_000 + seed)
    obs, _ = env.reset(seed=seed)
    episode = {"seed": seed, "policy": policy, "initial_state": state_of(env),
               "initial_obs": [float(x) for x in obs], "steps": []}
    action = None
    for t in range(1_000_000):
        if policy == "policy":
            action = solve(obs)
            action = [float(a) for a in action] if isinstance(action, (list, tuple, np.ndarray)) else int(action)
        elif policy == "random" or t % 10 == 0:
            action = draw_action(env, rng)
        sent = np.array(action, dtype=np.float32) if isinstance(action, list) else action
        obs, reward, terminated, truncated, _ = env.step(sent)
        episode["steps"].append({"action": action, "state": state_of(env), "obs": [float(x) for x in obs],
                                 "reward": float(reward), "terminated": bool(terminated), "truncated": bool(truncated)})
        if terminated or truncated:
            break
    if episode["initial_state"] is None:
        del episode["initial_state"]
        for step in episode["steps"]:
            del step["state"]
    return episode


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task", help="the task's id, e.g. CartPole-v1 (what --task names in eureka conformance)")
    parser.add_argument("out", help="the JSON file to write")
    parser.add_argument("--episodes", type=int, default=6)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--entry-point", help="module:Class of an environment that is not registered")
    parser.add_argument("--max-episode-steps", type=int, default=1000, help="the time limit with --entry-point")
    parser.add_argument("--policy", help="module:function, observation -> action, for the odd episodes")
    args = parser.parse_args()

    env = make(args)
    solve = load(args.policy) if args.policy else None
    odd = "policy" if solve else "held"
    episodes = [record(env, args.first_seed + k, "random" if k % 2 == 0 else odd, solve)
                for k in range(args.episodes)]
    limit = env.spec.max_episode_steps if env.spec is not None and args.entry_point is None else args.max_episode_steps
    with open(args.out, "w") as f:
        json.dump({"source": f"Gymnasium {gym.__version__}, {args.entry_point or args.task}", "task": args.task,
                   "max_episode_steps": limit, "episodes": episodes}, f)
    for e in episodes:
        last = e["steps"][-1]
        print(f"seed {e['seed']} ({e['policy']}): {len(e['steps'])} steps, "
              f"{'terminated' if last['terminated'] else 'truncated'}")


if __name__ == "__main__":
    main()
