"""Long experiments: simulations and bot tournaments cut into chunks of games (docs/cluster.md).

A run is a `Plan` (the game, its options, the players or bots, how many games,
the seed): game i is played with its own seed derived from (seed, i), and
chance is drawn by position in the game, so every game's result is fixed by
the plan alone. The games are cut into chunks that any backend may play in
any order (`backends`: in this process, a local process pool, a Dask cluster);
the results are put back in game order, so every number reported is identical
whatever the backend and the number of workers. Finished chunks are kept in
the history database under a run id (`runs`), so an interrupted run resumes.
"""

from pinsetter.experiments.plan import Plan, game_seed, run_chunk

__all__ = ["Plan", "game_seed", "run_chunk"]
