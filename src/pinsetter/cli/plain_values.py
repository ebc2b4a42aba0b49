"""Command-line values converted without pydantic: a command that answers a question starts sooner.

Typer converts each parameter's text through a pydantic `TypeAdapter` built on first use, and
importing pydantic and building the adapters takes longer than `pinsetter score` takes to do its
work. Every parameter pinsetter declares is plain: text, a switch, a path, or a value our own
parser reads (`whole_number`, `known_game`, ...), alone or repeated. For those the adapter only
calls the parser, keeps the text, or makes the path and checks it as Typer does (`coerce_cli_path`):
`PlainGroup`, the app's command group, gives each such parameter a converter doing just that.
Anything else, and any value a parser refuses with a ValueError (which pydantic words itself),
goes to Typer's own conversion, so what a user sees is the same either way
(tests/test_cli_startup.py compares both on every parameter).

This leans on Typer's private `_coercion.RuntimeParam` and parameters' `_runtime_param` (typer
0.29); tests/test_cli_startup.py fails on a Typer that changes them, before any user meets it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args, get_origin

from typer import _coercion
from typer._param_types import coerce_cli_path
from typer.core import TyperGroup

__all__ = ["PlainGroup", "plain_converter"]

Converter = Callable[[Any, Any, Any], Any]  # (value, parameter, context) -> converted value


@dataclass(frozen=True)
class PlainRuntimeParam(_coercion.RuntimeParam):
    """Typer's runtime conversion of one parameter, done by a plain converter."""

    convert: Converter
    descriptor: Any

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            return self.convert(value, param, ctx)
        except (ValueError, AssertionError):  # pydantic turns these into its own message: let Typer say it
            return _coercion.build_runtime_param(self.descriptor)._coerce_value(value, param=param, ctx=ctx)


def _leaf_converter(annotation: Any, info: Any) -> Converter | None:
    """The conversion of one value, as Typer's adapter makes it (`typer._adapters.build_leaf_adapter`)."""
    parser = info.parser
    if parser is not None:
        return lambda value, param, ctx: parser(value)
    if annotation is str or annotation is bool:  # text as typed; a switch's True or False
        return lambda value, param, ctx: value if isinstance(value, annotation) else _not_plain(value)
    if annotation is Path and info.path_type is None:

        def path(value: Any, param: Any, ctx: Any) -> Any:
            given = Path(value) if isinstance(value, str) else value
            return coerce_cli_path(given, info, path_type=Path, param=param, ctx=ctx)

        return path
    return None


def _not_plain(value: Any) -> Any:
    """A value of another type than the command line's text (bytes, a default): Typer converts it."""
    raise ValueError(f"not command-line text: {value!r}")


def plain_converter(descriptor: Any) -> Converter | None:
    """A converter for a parameter of this `typer._coercion.TypeDescriptor`, or None when it is not plain."""
    if descriptor.file_annotation is not None:
        return None
    annotation, info = descriptor.annotation, descriptor.parameter_info
    if get_origin(annotation) is list:
        item = _leaf_converter(get_args(annotation)[0], info)
        if item is None:
            return None
        return lambda value, param, ctx: [
            item(one, param, ctx) for one in (value if isinstance(value, list | tuple) else [value])
        ]
    return _leaf_converter(annotation, info)


def _make_plain(param: Any) -> None:
    """Give a plain Typer parameter its plain converter (before Typer builds its own)."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or getattr(param, "_runtime_param", False) is not None:
        return  # not a Typer parameter, or one Typer has already given its conversion
    convert = plain_converter(descriptor)
    if convert is not None:
        param._runtime_param = PlainRuntimeParam(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            convert=convert,
            descriptor=descriptor,
        )


def _plain_help_option(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A command's `--help` option (made when the parser first asks), plain as well."""

    def get_help_option(ctx: Any) -> Any:
        option = make(ctx)
        if option is not None:
            _make_plain(option)
        return option

    return get_help_option


class PlainGroup(TyperGroup):
    """The app's command group: plain parameters, its own and its commands', converted without pydantic."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        for command in (self, *self.commands.values()):
            for param in command.params:
                _make_plain(param)
            command.__dict__["get_help_option"] = _plain_help_option(command.get_help_option)
