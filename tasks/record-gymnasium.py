"""Records episodes of a Gymnasium environment in the format `eureka conformance` replays.

Run it where Gymnasium is installed (pip install gymnasium; "gymnasium[box2d]" for LunarLander),
against the original environment you port to a task folder, then check the port:

    python3 tasks/record-gymnasium.py CartPole-v1 cartpole.json --episodes 6 --policy heuristic
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
farther than random noise does. `--policy heuristic` is a built-in solver for the seven Gymnasium
tasks the project ships (the one of shared/golden; for LunarLander, Gymnasium's own `heuristic`).

LunarLander (a Box2D world, no `state` array) records what a port needs to replay it instead: every
value the environment drew from its generator, in call order (`reset_draws`, each step's `draws`),
the lander body after reset and after every step (`initial_lander`, `lander`) and `helipad_y`. Its
random actions stay within the bounds (float32, generator 20000 + seed), as shared/golden's were.
With --first-seed 0 --episodes 6 --policy heuristic this recorder writes the episodes of
shared/golden exactly, for all seven tasks (Gymnasium 1.4.0, numpy 2.4, Box2D 2.3.10).
"""
import argparse
import importlib
import json

import math

import gymnasium as gym
import numpy as np


def load(entry_point):
    module, name = entry_point.split(":")
    return getattr(importlib.import_module(module), name)


def make(args):
    if args.entry_point is None:
        return gym.make(args.task)
    return gym.wrappers.TimeLimit(load(args.entry_point)(), max_episode_steps=args.max_episode_steps)


class RecordingGenerator:
    """Wraps the environment's numpy Generator and keeps every value it hands out, in call order."""

    def __init__(self, rng):
        self.rng, self.draws = rng, []

    def uniform(self, *a, **k):
        v = self.rng.uniform(*a, **k)
        self.draws.extend(np.atleast_1d(v).astype(float).tolist())
        return v

    def integers(self, *a, **k):
        v = self.rng.integers(*a, **k)
        self.draws.extend(np.atleast_1d(v).astype(float).tolist())
        return v

    def __getattr__(self, name):
        return getattr(self.rng, name)


def is_lander(env):
    return getattr(env.unwrapped, "lander", None) is not None or env.unwrapped.__class__.__name__ == "LunarLander"


def lander_record(u):
    b = u.lander
    return {"x": b.position.x, "y": b.position.y, "angle": b.angle, "vx": b.linearVelocity.x,
            "vy": b.linearVelocity.y, "omega": b.angularVelocity,
            "legs": [bool(leg.ground_contact) for leg in u.legs]}


def state_of(env):
    state = getattr(env.unwrapped, "state", None)
    return None if state is None else [float(x) for x in np.asarray(state, dtype=np.float64).ravel()]


def draw_action(env, rng, overshoot):
    space = env.action_space
    if isinstance(space, gym.spaces.Discrete):
        return int(space.start + rng.integers(space.n))
    low, high = space.low.astype(np.float64), space.high.astype(np.float64)
    middle, half = (low + high) / 2, (high - low) / 2
    return [float(x) for x in rng.uniform(middle - overshoot * half, middle + overshoot * half)]


def lander_random(env, rng):
    """shared/golden's lander draws: an index, or a float32 pair within the bounds."""
    if isinstance(env.action_space, gym.spaces.Discrete):
        return int(rng.integers(env.action_space.n))
    return rng.uniform(-1, 1, size=env.action_space.shape).astype(np.float32)


def as_recorded(action):
    """What the episode keeps: an index, or the continuous action as float64 numbers."""
    if isinstance(action, np.ndarray):
        return action.astype(float).tolist()
    return [float(a) for a in action] if isinstance(action, (list, tuple)) else int(action)


def as_sent(action):
    """A list goes to the environment as a float32 array (as an agent's would); an array as it is."""
    return np.array(action, dtype=np.float32) if isinstance(action, list) else action


def reset(env, seed, episode):
    obs, _ = env.reset(seed=seed)
    if not is_lander(env):
        episode["initial_state"] = state_of(env)
        return obs, None
    # Reset again through the recorder, so that the terrain and the initial push are drawn now.
    u = env.unwrapped
    generator = RecordingGenerator(u.np_random)
    u._np_random = generator
    obs, _ = env.reset()
    episode.update({"reset_draws": list(generator.draws), "initial_lander": lander_record(u), "helipad_y": float(u.helipad_y)})
    return obs, generator


def record(env, seed, policy, solve, overshoot):
    lander = is_lander(env)
    rng = np.random.default_rng((20_000 if lander else 10_000) + seed)
    episode = {"seed": seed, "policy": policy}
    obs, generator = reset(env, seed, episode)
    episode["initial_obs"] = [float(x) for x in obs]
    episode["steps"] = []
    action = None
    for t in range(1_000_000):
        if policy in ("heuristic", "policy"):
            action = solve(env, obs)
        elif policy == "random" or t % 10 == 0:
            action = lander_random(env, rng) if lander else draw_action(env, rng, overshoot)
        if generator is not None:
            generator.draws = []
        obs, reward, terminated, truncated, _ = env.step(as_sent(action))
        step = {"action": as_recorded(action)}
        if lander:
            step.update({"draws": list(generator.draws), "lander": lander_record(env.unwrapped)})
        else:
            step["state"] = state_of(env)
        step.update({"obs": [float(x) for x in obs], "reward": float(reward),
                     "terminated": bool(terminated), "truncated": bool(truncated)})
        episode["steps"].append(step)
        if terminated or truncated:
            break
    if episode.get("initial_state", 0) is None:
        del episode["initial_state"]
        for step in episode["steps"]:
            del step["state"]
    return episode


def builtin_heuristic(task):
    """Solvers of the seven tasks (shared/golden's), so that the recordings reach every kind of ending."""
    if task in ("LunarLander-v3", "LunarLanderContinuous-v3"):
        from gymnasium.envs.box2d.lunar_lander import heuristic
        return lambda env, obs: heuristic(env.unwrapped, obs)
    if task == "CartPole-v1":  # push toward the pole's lean (keeps it up for long)
        return lambda env, obs: int(obs[2] + 0.5 * obs[3] > 0)
    if task == "Acrobot-v1":  # pump energy: torque along the second joint's velocity
        return lambda env, obs: 2 if obs[5] > 0 else 0
    if task == "MountainCar-v0":
        return lambda env, obs: 2 if obs[1] >= 0 else 0
    if task == "MountainCarContinuous-v0":
        return lambda env, obs: [1.0 if obs[1] >= 0 else -1.0]
    if task == "Pendulum-v1":
        return lambda env, obs: pendulum_heuristic(obs)
    raise SystemExit(f"--policy heuristic: no built-in heuristic for {task}; give module:function")


def pendulum_heuristic(obs):
    """Pump energy until it would pass the top, then a PD hold there."""
    th, thdot = math.atan2(obs[1], obs[0]), obs[2]
    if abs(th) < 0.8:
        return [float(np.clip(-20 * th - 3 * thdot, -2, 2))]
    energy = 0.5 * thdot * thdot + 15 * (math.cos(th) - 1)
    return ([2.0 if thdot >= 0 else -2.0]) if energy < 0 else [0.0]


def solver(args):
    """The odd episodes' policy, as (label, function of env and observation), or the held-random one."""
    if args.policy is None:
        return "held", None
    if args.policy == "heuristic":
        return "heuristic", builtin_heuristic(args.task)
    own = load(args.policy)
    return "policy", lambda env, obs: own(obs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task", help="the task's id, e.g. CartPole-v1 (what --task names in eureka conformance)")
    parser.add_argument("out", help="the JSON file to write")
    parser.add_argument("--episodes", type=int, default=6)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--entry-point", help="module:Class of an environment that is not registered")
    parser.add_argument("--max-episode-steps", type=int, default=1000, help="the time limit with --entry-point")
    parser.add_argument("--policy", help="'heuristic' (built in, the seven Gymnasium tasks), or module:function, "
                                         "observation -> action, for the odd episodes")
    parser.add_argument("--overshoot", type=float, default=1.5, help="random continuous actions span this many half-ranges")
    args = parser.parse_args()

    env = make(args)
    odd, solve = solver(args)
    episodes = [record(env, args.first_seed + k, "random" if k % 2 == 0 else odd, solve, args.overshoot)
                for k in range(args.episodes)]
    limit = env.spec.max_episode_steps if env.spec is not None and args.entry_point is None else args.max_episode_steps
    versions = f"numpy {np.__version__}"
    if is_lander(env):
        import Box2D
        versions += f", Box2D {Box2D.__version__}"
    with open(args.out, "w") as f:
        json.dump({"source": f"Gymnasium {gym.__version__}, {args.entry_point or args.task} ({versions})",
                   "task": args.task, "max_episode_steps": limit, "episodes": episodes}, f)
    for e in episodes:
        last = e["steps"][-1]
        print(f"seed {e['seed']} ({e['policy']}): {len(e['steps'])} steps, "
              f"{'terminated' if last['terminated'] else 'truncated'}")


if __name__ == "__main__":
    main()
