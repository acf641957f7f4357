# PyTorch reference trainer for `npm run bench`: CleanRL's PPO (ppo.py for discrete actions,
# ppo_continuous_action.py for continuous ones) with the project's defaults, trained the way the
# original Python tutorial trains each candidate: numpy vector envs, the reward called in Python
# once per env per step, one thread. It lives in the project so the speed ratio can be rerun from
# a clean clone.
#
# Usage:  /usr/bin/python3 bench/torch_ppo.py --task MountainCar-v0|Pendulum-v1|CartPole-v1 \
#             --steps N --seed S [--config '{"gamma":0.9,...}']
#   --config: a JSON object of PpoConfig fields (camelCase, functions/train-seed/ppo-config.ts).
# Prints one JSON line: task, steps, seed, train_s (training wall seconds, evaluation excluded),
# success (share of 20 greedy evaluation episodes passing the task's success test), steps_per_s.
# Needs: apt-get install -y python3-torch python3-numpy
import argparse, json, math, time
from dataclasses import dataclass, fields, replace

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical, Normal


@dataclass
class Args:
    """PpoConfig's defaults (functions/train-seed/ppo-config.ts), snake_case as CleanRL's Args."""
    num_envs: int = 16
    num_steps: int = 128
    learning_rate: float = 2.5e-4  # constant: our trainer does not anneal it
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    norm_adv: bool = True
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    adam_epsilon: float = 1e-8  # PyTorch's default, as ours (CleanRL's 1e-5 damps the actor)
    init: str = "orthogonal"    # or "uniform" (nn.Linear's default)
    norm_reward: bool = False   # Gymnasium's NormalizeReward + clip to ±10
    norm_obs: bool = False      # NormalizeObservation: the MuJoCo tasks' only; the reference runs the classic ones


def args_from_config(config: dict) -> Args:
    """Overrides the defaults with a PpoConfig JSON object; unknown keys are an error, not ignored."""
    snake = lambda k: "".join("_" + c.lower() if c.isupper() else c for c in k)
    names = {f.name for f in fields(Args)}
    unknown = [k for k in config if snake(k) not in names]
    if unknown:
        raise SystemExit(f"unknown config fields: {unknown}")
    args = replace(Args(), **{snake(k): v for k, v in config.items()})
    if args.norm_obs:
        raise SystemExit("normObs: the reference has no observation normalization (it runs the classic-control tasks)")
    return args


# ---------------------------------------------------------------------------------------------
# Environments: n copies stepped at once in numpy (float64 state, float32 observations, as
# Gymnasium), a time limit, and an auto-reset that keeps the ending episode's final observation.
# ---------------------------------------------------------------------------------------------
class VectorEnv:
    max_steps = 0

    def __init__(self, n, seed):
        self.n, self.rng = n, np.random.default_rng(seed)
        self.state = np.zeros((n, self.state_size))
        self.t = np.zeros(n, dtype=np.int64)
        self.reset(np.ones(n, dtype=bool))

    def step(self, action):
        """action: int indices [n] or clipped torques [n, 1]. Returns obs, terminated, truncated, final obs."""
        terminated = self.dynamics(action)
        self.t += 1
        truncated = self.t >= self.max_steps
        final = self.obs()
        done = terminated | truncated
        if done.any():
            self.reset(done)
            self.t[done] = 0
        return self.obs(), terminated, truncated, final


class MountainCar(VectorEnv):
    state_size, max_steps = 2, 200

    def reset(self, m):
        self.state[m, 0] = self.rng.uniform(-0.6, -0.4, m.sum())
        self.state[m, 1] = 0.0

    def dynamics(self, a):
        pos, vel = self.state[:, 0], self.state[:, 1]
        vel = np.clip(vel + (a - 1) * 0.001 - 0.0025 * np.cos(3 * pos), -0.07, 0.07)
        pos = np.clip(pos + vel, -1.2, 0.6)
        vel = np.where((pos <= -1.2) & (vel < 0), 0.0, vel)  # the left wall is inelastic
        self.state[:, 0], self.state[:, 1] = pos, vel
        return (pos >= 0.5) & (vel >= 0)

    def obs(self):
        return self.state.astype(np.float32)


class Pendulum(VectorEnv):
    state_size, max_steps = 2, 200  # [theta, thdot]; never terminates

    def reset(self, m):
        self.state[m, 0] = self.rng.uniform(-math.pi, math.pi, m.sum())
        self.state[m, 1] = self.rng.uniform(-1, 1, m.sum())

    def dynamics(self, a):
        th, thdot = self.state[:, 0], self.state[:, 1]
        u = np.clip(a[:, 0], -2.0, 2.0)
        thdot = np.clip(thdot + (3 * 10.0 / (2 * 1.0) * np.sin(th) + 3.0 / (1.0 * 1.0 ** 2) * u) * 0.05, -8, 8)
        self.state[:, 0], self.state[:, 1] = th + thdot * 0.05, thdot
        return np.zeros(self.n, dtype=bool)

    def obs(self):
        th, thdot = self.state[:, 0], self.state[:, 1]
        return np.stack([np.cos(th), np.sin(th), thdot], 1).astype(np.float32)


class CartPole(VectorEnv):
    state_size, max_steps = 4, 500  # [x, x_dot, theta, theta_dot]
    THETA_LIMIT = 12 * 2 * math.pi / 360

    def reset(self, m):
        self.state[m] = self.rng.uniform(-0.05, 0.05, (m.sum(), 4))

    def dynamics(self, a):
        x, x_dot, theta, theta_dot = self.state.T
        force = np.where(a == 1, 10.0, -10.0)
        cos, sin = np.cos(theta), np.sin(theta)
        temp = (force + 0.05 * theta_dot ** 2 * sin) / 1.1  # polemass_length 0.05, total mass 1.1
        thetaacc = (9.8 * sin - cos * temp) / (0.5 * (4.0 / 3.0 - 0.1 * cos ** 2 / 1.1))
        xacc = temp - 0.05 * thetaacc * cos / 1.1
        # Explicit Euler: positions move by the old velocities.
        self.state = np.stack([x + 0.02 * x_dot, x_dot + 0.02 * xacc, theta + 0.02 * theta_dot, theta_dot + 0.02 * thetaacc], 1)
        x, theta = self.state[:, 0], self.state[:, 2]
        return (x < -2.4) | (x > 2.4) | (theta < -self.THETA_LIMIT) | (theta > self.THETA_LIMIT)

    def obs(self):
        return self.state.astype(np.float32)


# ---------------------------------------------------------------------------------------------
# The rewards: each task's `baselines.human.code` (tasks/<folder>/task.ts), translated line by
# line from JavaScript. obs and next_obs are lists of floats (the float32 observations read as
# doubles, as JavaScript reads them); action is an int (discrete) or a list (the clipped torque).
# ---------------------------------------------------------------------------------------------
def mountain_car_reward(obs, action, next_obs, terminated):
    GAMMA, SHAPING_SCALE, GOAL_BONUS = 0.99, 100, 10
    # Kinetic 0.5 v^2 plus potential g/3 sin(3p) (g = 0.0025), scaled by 400 to about [-0.33, 1.3].
    def energy(s):
        return 0.5 * s[1] * s[1] * 400 + math.sin(3 * s[0]) * 0.0025 / 3 * 400
    step = -1
    shaping = SHAPING_SCALE * (GAMMA * energy(next_obs) - energy(obs))
    goal = GOAL_BONUS if terminated else 0
    return step + shaping + goal, {"step": step, "shaping": shaping, "goal": goal}


def pendulum_reward(obs, action, next_obs, terminated):
    GAMMA, SHAPING_SCALE, UPRIGHT_BONUS = 0.99, 10, 2
    # Energy per unit inertia, 0.5 thdot^2 + 15 cos(theta): its gap to 15 (resting upright), in [0, ~1].
    def energy_gap(s):
        return abs(0.5 * s[2] * s[2] + 15 * s[0] - 15) / 30
    theta = math.atan2(obs[1], obs[0])
    cost = -(theta * theta + 0.1 * obs[2] * obs[2] + 0.001 * action[0] * action[0])
    upright = UPRIGHT_BONUS if abs(math.atan2(next_obs[1], next_obs[0])) < 0.2 else 0
    shaping = SHAPING_SCALE * (GAMMA * -energy_gap(next_obs) + energy_gap(obs))
    return cost + upright + shaping, {"cost": cost, "upright": upright, "shaping": shaping}


def cart_pole_reward(obs, action, next_obs, terminated):
    ANGLE_LIMIT, X_LIMIT = 0.2095, 2.4  # 12 degrees; the track's edge
    ANGLE_WEIGHT, POSITION_WEIGHT, FALL_PENALTY = 0.5, 0.3, 10
    alive = 1
    # Squared, so a pole near upright and a cart near the centre cost almost nothing.
    angle = -ANGLE_WEIGHT * min(1, (next_obs[2] / ANGLE_LIMIT) ** 2)
    position = -POSITION_WEIGHT * min(1, (next_obs[0] / X_LIMIT) ** 2)
    fall = -FALL_PENALTY if terminated else 0
    return alive + angle + position + fall, {"alive": alive, "angle": angle, "position": position, "fall": fall}


# Success tests on one evaluation episode: its observations after each step [T, d] and whether it terminated.
def pendulum_upright(o):
    return np.abs(np.arctan2(o[:, 1], o[:, 0])) < 0.2


@dataclass
class Task:
    env: type
    ranges: list        # per observation dimension: the task.ts `typical` range, else its bounds
    actions: int        # discrete: how many; continuous: the box's dimension
    continuous: bool
    compute_reward: object
    success: object
    action_bound: float = 0.0


TASKS = {
    "MountainCar-v0": Task(MountainCar, [(-1.2, 0.6), (-0.07, 0.07)], 3, False, mountain_car_reward,
                           lambda o, term: term),
    "Pendulum-v1": Task(Pendulum, [(-1, 1), (-1, 1), (-8, 8)], 1, True, pendulum_reward,
                        lambda o, term: len(o) >= 100 and bool(pendulum_upright(o[-100:]).all()), action_bound=2.0),
    "CartPole-v1": Task(CartPole, [(-2.4, 2.4), (-3, 3), (-CartPole.THETA_LIMIT, CartPole.THETA_LIMIT), (-3.5, 3.5)], 2, False,
                        cart_pole_reward, lambda o, term: len(o) >= 475),  # +1 per step: return >= 475
}


# ---------------------------------------------------------------------------------------------
# The agent: separate 64-64 tanh actor and critic (CleanRL's), observations scaled to about [-1, 1].
# ---------------------------------------------------------------------------------------------
def layer_init(layer, gain, kind):
    if kind == "orthogonal":  # CleanRL's layer_init; "uniform" keeps nn.Linear's own init
        nn.init.orthogonal_(layer.weight, gain)
        nn.init.zeros_(layer.bias)
    return layer


class Agent(nn.Module):
    def __init__(self, task: Task, init: str):
        super().__init__()
        d, k = len(task.ranges), task.actions
        mlp = lambda out, gain: nn.Sequential(
            layer_init(nn.Linear(d, 64), math.sqrt(2), init), nn.Tanh(),
            layer_init(nn.Linear(64, 64), math.sqrt(2), init), nn.Tanh(),
            layer_init(nn.Linear(64, out), gain, init))
        self.actor, self.critic = mlp(k, 0.01), mlp(1, 1.0)
        self.continuous = task.continuous
        # A state-independent log-std, starting at std 1 (ppo_continuous_action.py).
        self.actor_logstd = nn.Parameter(torch.zeros(1, k)) if task.continuous else None
        lo, hi = np.array(task.ranges, dtype=np.float64).T
        self.offset, self.scale = (lo + hi) / 2, (hi - lo) / 2

    def scaled(self, raw_obs):
        return torch.as_tensor((raw_obs - self.offset) / self.scale, dtype=torch.float32)

    def dist(self, x):
        out = self.actor(x)
        if self.continuous:
            return Normal(out, self.actor_logstd.expand_as(out).exp())
        return Categorical(logits=out)

    def logprob_entropy(self, dist, action):
        # A diagonal Gaussian's log-prob and entropy are sums over the action's dimensions.
        if self.continuous:
            return dist.log_prob(action).sum(1), dist.entropy().sum(1)
        return dist.log_prob(action), dist.entropy()

    def greedy(self, x):
        out = self.actor(x)
        return out if self.continuous else out.argmax(-1)


class RewardNormalizer:
    """Gymnasium's NormalizeReward: rewards divided by the running std of each env's discounted return."""

    def __init__(self, n, gamma):
        self.ret, self.gamma = np.zeros(n), gamma
        self.mean, self.var, self.count = 0.0, 1.0, 1e-4

    def __call__(self, rewards, terminated):
        self.ret = self.ret * self.gamma * (1 - terminated) + rewards
        m, v, n = self.ret.mean(), self.ret.var(), len(self.ret)  # RunningMeanStd, Chan's update
        delta, total = m - self.mean, self.count + n
        self.mean += delta * n / total
        self.var = (self.var * self.count + v * n + delta ** 2 * self.count * n / total) / total
        self.count = total
        return np.clip(rewards / np.sqrt(self.var + 1e-8), -10, 10)


# ---------------------------------------------------------------------------------------------
# PPO, top to bottom: rollout, GAE, epochs of shuffled minibatches with the clipped losses.
# ---------------------------------------------------------------------------------------------
def train(task: Task, args: Args, total_steps: int, seed: int) -> Agent:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)  # minibatch shuffling
    envs = task.env(args.num_envs, seed)
    agent = Agent(task, args.init)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=args.adam_epsilon)
    normalize = RewardNormalizer(args.num_envs, args.gamma) if args.norm_reward else None
    T, N = args.num_steps, args.num_envs
    batch_size = T * N
    minibatch_size = batch_size // args.num_minibatches
    num_updates = max(1, total_steps // batch_size)  # whole rollouts only, as ours

    obs_buf = torch.zeros((T, N, len(task.ranges)))
    act_buf = torch.zeros((T, N, task.actions)) if task.continuous else torch.zeros((T, N), dtype=torch.long)
    logprobs, rewards, dones, values = (torch.zeros((T, N)) for _ in range(4))
    next_obs = envs.obs()

    for update in range(num_updates):
        # Rollout: act with the current policy; the reward is called per env per step, in Python.
        for step in range(T):
            x = agent.scaled(next_obs)
            with torch.no_grad():
                dist = agent.dist(x)
                action = dist.sample()
                logprob, _ = agent.logprob_entropy(dist, action)  # of the sampled, unclipped action
                values[step] = agent.critic(x).squeeze(-1)
            obs_buf[step], act_buf[step], logprobs[step] = x, action, logprob
            # Gymnasium's ClipAction: the environment and the reward see the clipped action.
            applied = action.numpy().clip(-task.action_bound, task.action_bound) if task.continuous else action.numpy()
            obs_now = next_obs.tolist()
            next_obs, terminated, truncated, final = envs.step(applied)
            final_l, applied_l = final.tolist(), applied.tolist()
            r = np.array([task.compute_reward(obs_now[i], applied_l[i], final_l[i], bool(terminated[i]))[0] for i in range(N)])
            if normalize:
                r = normalize(r, terminated)
            rewards[step] = torch.as_tensor(r, dtype=torch.float32)
            dones[step] = torch.as_tensor(terminated | truncated, dtype=torch.float32)

        # GAE; a truncation counts as done (no bootstrap from the final observation), as ours.
        with torch.no_grad():
            next_value = agent.critic(agent.scaled(next_obs)).squeeze(-1)
        advantages = torch.zeros_like(rewards)
        lastgaelam = 0
        for t in reversed(range(T)):
            nextvalues = next_value if t == T - 1 else values[t + 1]
            nextnonterminal = 1.0 - dones[t]
            delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
            advantages[t] = lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
        returns = advantages + values

        # Optimize the policy and value network: epochs of shuffled minibatches.
        b_obs, b_logprobs = obs_buf.reshape(batch_size, -1), logprobs.reshape(-1)
        b_actions = act_buf.reshape(batch_size, -1) if task.continuous else act_buf.reshape(-1)
        b_advantages, b_returns = advantages.reshape(-1), returns.reshape(-1)
        b_inds = np.arange(batch_size)
        for epoch in range(args.update_epochs):
            rng.shuffle(b_inds)
            for start in range(0, batch_size - minibatch_size + 1, minibatch_size):
                mb = torch.as_tensor(b_inds[start:start + minibatch_size])
                dist = agent.dist(b_obs[mb])
                newlogprob, entropy = agent.logprob_entropy(dist, b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()

                mb_adv = b_advantages[mb]
                if args.norm_adv:
                    mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio, -mb_adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((agent.critic(b_obs[mb]).squeeze(-1) - b_returns[mb]) ** 2).mean()  # unclipped
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss

                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)  # one global norm
                optimizer.step()
    return agent


def evaluate(task: Task, agent: Agent, seed: int, episodes: int = 20) -> float:
    """Greedy episodes (the argmax, or the Gaussian's mean clipped), each to its first end, on seeds
    far from training's (as grade.ts); returns the share that pass the task's success test."""
    envs = task.env(episodes, 1_000_003 + seed)
    trace = [[] for _ in range(episodes)]
    passed = [None] * episodes
    obs = envs.obs()
    while any(p is None for p in passed):
        with torch.no_grad():
            action = agent.greedy(agent.scaled(obs)).numpy()
        if task.continuous:
            action = action.clip(-task.action_bound, task.action_bound)
        obs, terminated, truncated, final = envs.step(action)
        for i in range(episodes):
            if passed[i] is None:
                trace[i].append(final[i])
                if terminated[i] or truncated[i]:
                    passed[i] = bool(task.success(np.array(trace[i]), bool(terminated[i])))
    return sum(passed) / episodes


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--task", required=True, choices=sorted(TASKS))
    parser.add_argument("--steps", type=int, default=150_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--config", default="{}", help="JSON object of PpoConfig fields (camelCase)")
    cli = parser.parse_args()
    torch.set_num_threads(1)  # one thread, as the tutorial trains each candidate
    task, args = TASKS[cli.task], args_from_config(json.loads(cli.config))

    start = time.perf_counter()
    agent = train(task, args, cli.steps, cli.seed)
    train_s = time.perf_counter() - start
    success = evaluate(task, agent, cli.seed)
    print(json.dumps({"task": cli.task, "steps": cli.steps, "seed": cli.seed, "train_s": round(train_s, 2),
                      "success": success, "steps_per_s": round(cli.steps / train_s, 1)}))
