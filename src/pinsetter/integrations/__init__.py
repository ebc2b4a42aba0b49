"""Adapters that put pinsetter's games into reinforcement-learning and search toolkits.

`encoding` (numpy only) gives every game a stable integer id for each action and
chance outcome and a fixed-size observation vector; `openspiel`, `gymnasium` and
`pettingzoo` are thin clients of it and of the game API, importable when the
`rl` extra is installed (`pip install 'pinsetter[rl]'`). See docs/integrations.md.
"""
