"""Behaviour cloning from trajectories, in numpy only: a tanh MLP imitates an agent.

Run: ``python experiments/behaviour_cloning.py [--game solowhist] [--players N]
[--agents rule] [--deals 20000] [--hidden 128] [--epochs 3]
[--out experiments/results/bc]``. No PyTorch: the network and its gradient are
written out below, Adam in ``numpy_adam.py``.

1. ``trickgym.simulate(..., out=OUT/data, trajectories=True)`` plays the
   deals and records every decision (the features observation of the seat
   to act, its legal mask, the action taken); an interrupted run is
   completed (``resume=True``), a finished one reused.
2. :func:`trickgym.sim.trajectories.iter_batches` streams the decisions of
   the training chunks, shuffled, in mini-batches; the last tenth of the
   chunks (whole deals never seen in training) is held out.
3. A tanh MLP is trained by Adam on the masked cross-entropy (illegal
   actions get no probability, as the agent never plays them), and its
   held-out accuracy (the legal action of highest logit is the one taken)
   printed each epoch.
4. The weights are saved as ``OUT/policy.npz`` (``w0, b0, w1, b1``: the
   format :class:`trickgym.agents.policy.MLPPolicy` reads) and the policy,
   playing every decision itself, is evaluated with ``trickgym.evaluate``
   against ``--eval-agents`` (default random and rule) in duplicate
   tournaments of ``--eval-deals`` deals.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from numpy_adam import Adam


class MLP:
    """A tanh MLP ``n_in -> hidden -> n_actions`` and its Adam state."""

    def __init__(self, n_in: int, hidden: int, n_actions: int, rng):
        scale0, scale1 = np.sqrt(1.0 / n_in), np.sqrt(1.0 / hidden)
        self.params = {
            "w0": (rng.standard_normal((n_in, hidden)) * scale0).astype(np.float32),
            "b0": np.zeros(hidden, np.float32),
            "w1": (rng.standard_normal((hidden, n_actions)) * scale1).astype(np.float32),
            "b1": np.zeros(n_actions, np.float32),
        }
        self.optimizer = Adam(self.params)

    def logits(self, x: np.ndarray, mask: np.ndarray):
        """Masked logits (illegal actions at -1e9) and the hidden layer."""
        p = self.params
        h = np.tanh(x @ p["w0"] + p["b0"])
        z = h @ p["w1"] + p["b1"]
        return np.where(mask, z, np.float32(-1e9)), h

    def loss_and_grads(self, x, mask, action):
        """Mean cross-entropy of the actions taken, and its gradient by parameter."""
        z, h = self.logits(x, mask)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z) * mask
        prob = e / e.sum(axis=1, keepdims=True)
        n = len(action)
        rows = np.arange(n)
        loss = -np.log(np.maximum(prob[rows, action], 1e-12)).mean()
        dz = prob
        dz[rows, action] -= 1.0
        dz /= n
        p = self.params
        dh = (dz @ p["w1"].T) * (1.0 - h * h)
        grads = {"w1": h.T @ dz, "b1": dz.sum(0), "w0": x.T @ dh, "b0": dh.sum(0)}
        return float(loss), grads

    def adam(self, grads, lr: float) -> None:
        """One Adam step."""
        self.optimizer.step(self.params, grads, lr)


def accuracy(net: MLP, folder, chunks, batch: int) -> tuple[float, int]:
    """Share of held-out decisions where the net's best legal action is the one taken."""
    from trickgym.sim.trajectories import iter_batches

    right = total = 0
    for b in iter_batches(folder, batch, ["features", "mask", "action"], chunks=chunks):
        z, _ = net.logits(b["features"], b["mask"])
        right += int((z.argmax(axis=1) == b["action"]).sum())
        total += len(b["action"])
    return right / max(total, 1), total


def save(path: Path, params: dict, game: str, options: dict) -> None:
    """``policy.npz`` with its settings: the table it was trained on, and that it bids."""
    import trickgym
    from trickgym.agents.policy import save_policy

    table = trickgym.game(game, **options)
    save_policy(path, params, game=table, bidding="policy", trainer="behaviour_cloning")


def main(argv=None) -> dict:
    """Run the example; returns the held-out accuracy and the evaluation table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="solowhist")
    parser.add_argument("--players", type=int, default=None, help="Troggu: the table size")
    parser.add_argument("--agents", default="rule", help="the agent(s) to imitate, per seat")
    parser.add_argument("--deals", type=int, default=20_000, help="deals (Phat: matches)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seats", default=None, help="imitate these seats only (0,2)")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--threads", type=int, default=None, help="numba threads")
    parser.add_argument("--eval-agents", default="random,rule")
    parser.add_argument("--eval-deals", type=int, default=2000, help="0: no evaluation")
    parser.add_argument("--out", default="experiments/results/bc")
    args = parser.parse_args(argv)

    import trickgym
    from trickgym.sim.trajectories import iter_batches, steps_info

    out = Path(args.out)
    data = out / "data"
    options = {} if args.players is None else {"players": args.players}
    count = {"matches": args.deals} if args.game == "phat" else {"deals": args.deals}
    agents = args.agents.split(",")
    start = time.perf_counter()
    run = trickgym.simulate(
        args.game, agents=agents[0] if len(agents) == 1 else agents, seed=args.seed,
        out=data, trajectories=True, resume=True, threads=args.threads, **count, **options,
    )  # fmt: skip
    info = steps_info(data)
    print(
        f"{info['decisions']:,} decisions of {args.game} ({run.chunks_run} chunks played, "
        f"{run.chunks_skipped} reused) in {time.perf_counter() - start:.1f} s"
    )
    n_chunks = info["n_chunks"]
    held = max(1, n_chunks // 10) if n_chunks > 1 else 0
    train = list(range(n_chunks - held))
    test = list(range(n_chunks - held, n_chunks)) or train
    seats = None if args.seats is None else [int(s) for s in args.seats.split(",")]
    rng = np.random.default_rng(args.seed)
    net = MLP(info["n_features"], args.hidden, info["n_actions"], rng)
    history = []
    for epoch in range(args.epochs):
        start, losses = time.perf_counter(), []
        for b in iter_batches(
            data, args.batch, ["features", "mask", "action"], seats=seats,
            shuffle_seed=args.seed * 1000 + epoch, chunks=train,
        ):  # fmt: skip
            loss, grads = net.loss_and_grads(b["features"], b["mask"], b["action"])
            net.adam(grads, args.lr)
            losses.append(loss)
        acc, n_test = accuracy(net, data, test, 4096)
        history.append({"epoch": epoch + 1, "loss": float(np.mean(losses)), "held_out": acc})
        print(
            f"epoch {epoch + 1}: loss {np.mean(losses):.4f}, held-out accuracy {acc:.2%} "
            f"of {n_test:,} decisions ({time.perf_counter() - start:.1f} s)"
        )
    policy = out / "policy.npz"
    save(policy, net.params, args.game, options)
    print(f"wrote {policy} (with its settings)")
    result = {"held_out_accuracy": history[-1]["held_out"] if history else None, "epochs": history}
    if args.eval_deals > 0:
        report = trickgym.evaluate(
            str(policy), args.game, opponents=args.eval_agents.split(","),
            deals=args.eval_deals, seed=args.seed + 1, threads=args.threads, progress=False,
            **options,
        )  # fmt: skip
        print(report.format())
        result["evaluation"] = report.table.reset_index().to_dict(orient="records")
    (out / "result.json").write_text(json.dumps(result, indent=2, default=str) + "\n")
    return result


if __name__ == "__main__":
    main()
