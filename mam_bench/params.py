"""Frozen, validated parameter models shared by every world.

A typo in a parameter name is an error, not a silent default (`extra="forbid"`), and
rational thresholds stay exact (`Fraction`) because the pilot compares shares exactly.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    PlainSerializer,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from mam_bench.errors import ConfigError, config_error_from

#: largest numerator or denominator of a fraction given as text: 2**40, so a grid
#: kernel's count * denominator and numerator * neighbours products stay exact in int64
MAX_TERM = 2**40


def parse_fraction(value: Any) -> Fraction:
    """Accept 3/4, "3/4", "0.75", 0.75 and Fraction; floats go through their decimal text."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise ValueError("expected a fraction such as 3/4")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(repr(value)).limit_denominator(10**6)
    if isinstance(value, str):
        text = value.strip()
        try:
            frac = Fraction(text)
        except (ValueError, ZeroDivisionError) as exc:
            raise ValueError(f"cannot read {value!r} as a fraction such as 3/4 or 0.25") from exc
        if abs(frac.numerator) > MAX_TERM or frac.denominator > MAX_TERM:
            # kernels compare count * denominator with numerator * neighbours in int64
            raise ValueError(f"{value!r}: numerator and denominator must be at most {MAX_TERM}")
        return frac
    raise ValueError(f"cannot read {value!r} as a fraction")


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)


ExactFraction = Annotated[
    Fraction,
    BeforeValidator(parse_fraction),
    PlainSerializer(fraction_text, return_type=str, when_used="json"),
]


#: upper bounds on the integer parameters that set a world's scale (a grid side, an agent count),
#: for every world, user worlds too: `size=1000` must be a clear error, not a MemoryError or a run
#: that never ends. A field that declares its own upper bound (`Field(le=...)`) keeps it instead.
MAX_SIDE = 200
MAX_COUNT = 10_000
SCALE_LIMITS: dict[str, int] = {
    **dict.fromkeys(("size", "side", "width", "height", "grid_size", "board_size"), MAX_SIDE),
    **dict.fromkeys(("n", "agents", "n_agents", "num_agents", "population", "nodes", "n_nodes"), MAX_COUNT),
}


def own_upper_bound(field: Any) -> bool:
    return any(hasattr(m, "le") or hasattr(m, "lt") for m in field.metadata)


class WorldParams(BaseModel):
    """Base of every world's parameters: frozen, no unknown keys, bounded scale."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    @field_validator("*")
    @classmethod
    def _bounded_scale(cls, value: Any, info: ValidationInfo) -> Any:
        top = SCALE_LIMITS.get(str(info.field_name).lower())
        if top is None or isinstance(value, bool) or not isinstance(value, int):
            return value
        if not own_upper_bound(cls.model_fields[info.field_name]) and value > top:
            raise ValueError(f"{value} is above the limit of {top} (a world's scale is bounded)")
        return value

    @classmethod
    def from_strings(cls, pairs: dict[str, Any]) -> WorldParams:
        """Build from `--param KEY=VALUE` pairs, failing with the field's name."""
        unknown = sorted(set(pairs) - set(cls.model_fields))
        if unknown:
            known = ", ".join(sorted(cls.model_fields))
            raise ConfigError(f"param.{unknown[0]}", f"unknown parameter (known: {known})")
        try:
            return cls.model_validate(pairs)
        except ValidationError as exc:
            raise config_error_from(exc, prefix="param.") from None

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    # --- settings core reads; a world with an `influence` or `board` parameter overrides them ---
    def influence_count(self) -> int | None:
        """Influence agents asked for by the world's own parameters; None: the world's default."""
        return None

    def engine_line(self) -> str | None:
        """How rounds are computed, where a world has more than one way (`run` prints it); None: one way."""
        return None

    def board_on(self) -> bool:
        """Whether influence agents share the coordination board (a world may let users turn it off)."""
        return True


def parse_param_pairs(items: list[str] | None) -> dict[str, str]:
    """Split `KEY=VALUE` strings; a malformed item names itself."""
    out: dict[str, str] = {}
    for item in items or []:
        if "=" not in item:
            raise ConfigError("param", f"expected KEY=VALUE, got {item!r}")
        key, value = item.split("=", 1)
        if key.strip() in out:
            raise ConfigError(
                f"param.{key.strip()}", f"given twice ({out[key.strip()]!r} and {value.strip()!r}); give it once"
            )
        out[key.strip()] = value.strip()
    return out
