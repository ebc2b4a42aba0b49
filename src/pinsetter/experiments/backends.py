"""Where chunks are played: this process, a local process pool, or a Dask cluster.

Every backend plays the chunks it is given and yields (chunk index, rows) as
they finish, in any order; the runner puts them back in order. Dask is imported
only when `--cluster` is used, so the plain backends need no extra package.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

from pinsetter.experiments.plan import Plan, Row, run_chunk
from pinsetter.i18n import _

__all__ = [
    "Backend",
    "ClusterError",
    "ClusterSpec",
    "DaskBackend",
    "PoolBackend",
    "SerialBackend",
    "make_backend",
    "parse_cluster",
]

INSTALL_HINT = "pip install 'pinsetter[cluster]'"
MAX_LOCAL_WORKERS = 256
# How long to wait for a scheduler, and for its first worker, before giving up with one line.
CONNECT_SECONDS = 20.0


class ClusterError(Exception):
    """The cluster cannot be used (Dask missing, bad address, no workers); one line for the user."""


class Backend(Protocol):
    name: str

    def run(self, plan: Plan, chunks: list[int]) -> Iterator[tuple[int, list[Row]]]:
        """Play `chunks` of `plan`; yield each chunk's index and rows as it finishes."""
        ...

    def close(self) -> None: ...


class _Closing:
    def __enter__(self) -> Any:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to let go of."""


class SerialBackend(_Closing):
    """Every chunk in this process, in order (`--workers 1`)."""

    name = "serial"

    def run(self, plan: Plan, chunks: list[int]) -> Iterator[tuple[int, list[Row]]]:
        for index in chunks:
            yield index, run_chunk(plan, index)


def _ignore_interrupts() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them (no traceback from each worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class PoolBackend(_Closing):
    """A local pool of worker processes (`--workers K`); no Dask needed."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.name = f"workers:{workers}"
        self._pool: ProcessPoolExecutor | None = None
        self._finished = False

    def run(self, plan: Plan, chunks: list[int]) -> Iterator[tuple[int, list[Row]]]:
        self._finished = False
        self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_ignore_interrupts)
        pending: dict[Future[list[Row]], int] = {self._pool.submit(run_chunk, plan, i): i for i in chunks}
        while pending:
            finished, _rest = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: pending[f]):
                yield pending.pop(future), future.result()
        self._finished = True

    def close(self) -> None:
        """After a complete run the idle workers exit; after an interrupt they are stopped at once."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if self._finished:
            pool.shutdown(wait=True)
            return
        workers = list((getattr(pool, "_processes", None) or {}).values())  # the executor keeps no public list
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
        for process in workers:
            process.join(timeout=5)


@dataclass(frozen=True)
class ClusterSpec:
    """`local:K` (a LocalCluster of K worker processes) or a scheduler address (`tcp://HOST:PORT`)."""

    local_workers: int | None = None
    address: str | None = None

    def __str__(self) -> str:
        return f"local:{self.local_workers}" if self.local_workers is not None else str(self.address)


_LOCAL = re.compile(r"local:([0-9]{1,3})")
_ADDRESS = re.compile(r"(tcp|tls)://[A-Za-z0-9.\-]+:[0-9]{1,5}|(tcp|tls)://\[[0-9A-Fa-f:.]+\]:[0-9]{1,5}")


def parse_cluster(text: str) -> ClusterSpec:
    """Read `--cluster`; ValueError with one line naming what is wrong."""
    raw = text.strip()
    local = _LOCAL.fullmatch(raw)
    if local:
        workers = int(local.group(1))
        if not 1 <= workers <= MAX_LOCAL_WORKERS:
            raise ValueError(
                _("--cluster local:K takes 1 to {most} workers, not {k}").format(most=MAX_LOCAL_WORKERS, k=workers)
            )
        return ClusterSpec(local_workers=workers)
    if _ADDRESS.fullmatch(raw):
        port = int(raw.rsplit(":", 1)[1])
        if not 1 <= port <= 65535:
            raise ValueError(_("--cluster {address}: port {port} is not 1 to 65535").format(address=raw, port=port))
        return ClusterSpec(address=raw)
    raise ValueError(_("--cluster takes local:K or a scheduler address tcp://HOST:PORT, not {text!r}").format(text=raw))


def _dask() -> Any:
    """Dask's distributed package, imported only when a cluster is asked for (untyped: Any)."""
    import importlib

    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise ClusterError(_("--cluster needs Dask: {hint}").format(hint=INSTALL_HINT)) from None


SPAWN_ENVIRON = "distributed.nanny.pre-spawn-environ"


def _dask_config() -> Any:
    """`dask.config` (after `distributed`, whose defaults it then holds)."""
    import importlib

    return importlib.import_module("dask.config")


def local_worker_environ() -> dict[str, Any]:
    """The environment Dask sets in a local worker before it starts, less `MALLOC_TRIM_THRESHOLD_`.

    Dask sets it (to 64 kB, to hand memory back to the system) and any setting of it turns off
    glibc's adaptive threshold for allocating with `mmap`. Every array over 128 kB, such as the
    Solitaire search's memo (512 kB, grown to a few MB in most deals, made anew for every deal),
    was then mapped afresh and faulted in page by page: about 9,500 page faults a game, 13% of
    a 10,000-game run's CPU spent in the kernel (docs/cluster.md). Without it a worker allocates
    as a plain process does, and the games are the same.
    """
    environ = dict(_dask_config().get(SPAWN_ENVIRON, default={}))
    environ.pop("MALLOC_TRIM_THRESHOLD_", None)
    return environ


def _worker_version() -> str:
    from pinsetter import __version__

    return __version__


class DaskBackend(_Closing):
    """Chunks as Dask tasks: a lost worker's chunks are played again elsewhere by the scheduler."""

    def __init__(self, spec: ClusterSpec) -> None:
        distributed = _dask()
        self.name = f"cluster:{spec}"
        self._cluster: Any = None
        self.client: Any = None
        try:
            if spec.local_workers is not None:
                with _dask_config().set({SPAWN_ENVIRON: local_worker_environ()}):
                    self._cluster = distributed.LocalCluster(
                        n_workers=spec.local_workers,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=":0",  # the HTTP endpoint on any free port (None still means 8787)
                        silence_logs=logging.ERROR,
                    )
                self.client = distributed.Client(self._cluster)
            else:
                self.client = distributed.Client(spec.address, timeout=CONNECT_SECONDS)
                self.client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as exc:
            self.close()
            detail = " ".join(str(exc).split()) or type(exc).__name__
            raise ClusterError(
                _("--cluster {spec}: cannot use the cluster ({detail})").format(spec=spec, detail=detail)
            ) from None
        self._check_versions()

    def _check_versions(self) -> None:
        """Every worker must run this pinsetter: another version could play the games differently."""
        from pinsetter import __version__

        try:
            versions = self.client.run(_worker_version)
        except Exception as exc:  # a worker without pinsetter cannot even unpickle the check
            self.close()
            detail = " ".join(str(exc).split()) or type(exc).__name__
            raise ClusterError(
                _("the cluster's workers cannot run pinsetter ({detail}): install it on every worker").format(
                    detail=detail
                )
            ) from None
        for worker, version in sorted(versions.items()):
            if version != __version__:
                self.close()
                raise ClusterError(
                    _(
                        "worker {worker} runs pinsetter {theirs}, this is {ours}: install the same version everywhere"
                    ).format(worker=worker, theirs=version, ours=__version__)
                )

    def run(self, plan: Plan, chunks: list[int]) -> Iterator[tuple[int, list[Row]]]:
        distributed = _dask()
        futures = {self.client.submit(run_chunk, plan, index, pure=False): index for index in chunks}
        try:
            for future in distributed.as_completed(list(futures)):
                try:
                    rows = future.result()
                except (distributed.KilledWorker, OSError, TimeoutError) as exc:  # not a bug in a game: the cluster
                    detail = " ".join(str(exc).split())[:200] or type(exc).__name__
                    raise ClusterError(
                        _("the cluster lost chunk {chunk} ({kind}: {detail})").format(
                            chunk=futures[future], kind=type(exc).__name__, detail=detail
                        )
                    ) from None
                yield futures[future], rows
        finally:
            if self.client is not None:
                self.client.cancel(list(futures))

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def make_backend(workers: int = 1, cluster: ClusterSpec | None = None) -> SerialBackend | PoolBackend | DaskBackend:
    """The backend for `--workers K` / `--cluster SPEC` (the cluster wins when both are given)."""
    if cluster is not None:
        return DaskBackend(cluster)
    return PoolBackend(workers) if workers > 1 else SerialBackend()
