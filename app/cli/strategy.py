"""``yacht-daily strategy``: the strategy engine's commands (tables cached on disk)."""

import json
from pathlib import Path

import click

from app.config import data_dir_from_env
from fairness import RULESETS
from strategy import load_or_build
from strategy.bots import LEVELS
from strategy.botsim import play_seeded, summary


def tables_dir(tables: Path | None, data_dir: Path | None) -> Path:
    """Where tables are cached: ``--tables``, else ``strategy-tables`` in the data directory."""
    if tables is not None:
        return tables
    return (data_dir or data_dir_from_env()) / "strategy-tables"


@click.group()
def strategy() -> None:
    """Optimal play: expected scores from the solved tables."""


@strategy.command()
@click.argument("sheet", type=click.Choice(sorted(RULESETS)))
@click.option("--tables", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Table cache directory (default: DATA_DIR/strategy-tables).")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Data directory (default: $YACHT_DAILY_DATA_DIR or ./var).")
def ev(sheet: str, tables: Path | None, data_dir: Path | None) -> None:
    """Print the optimal expected final score of SHEET from the empty sheet (4 decimals).

    Triple Yahtzee is not solved exactly: its figure is the approximation's value of the empty
    sheet (docs/strategy.md), said so on stderr.
    """
    table = load_or_build(tables_dir(tables, data_dir), sheet)
    if not table.exact:
        click.echo(f"{sheet}: not solved exactly; the approximation's value of the empty sheet "
                   "(the one-column optimum times the sum of the multipliers):", err=True)
    click.echo(f"{table.optimum:.4f}")


@strategy.command()
@click.option("--sheet", required=True, type=click.Choice(sorted(RULESETS)))
@click.option("--level", required=True, type=click.Choice(list(LEVELS)))
@click.option("--games", default=1000, show_default=True, type=click.IntRange(min=1),
              help="How many games to play.")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0),
              help="Run seed: game i's dice and choices derive from (seed, i).")
@click.option("--tables", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Table cache directory (default: DATA_DIR/strategy-tables).")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Data directory (default: $YACHT_DAILY_DATA_DIR or ./var).")
def play(sheet: str, level: str, games: int, seed: int, tables: Path | None,
         data_dir: Path | None) -> None:
    """Play GAMES seeded games of SHEET with the LEVEL bot; print their figures as JSON.

    Every action is played through fairness.Game on the game's own dice stream.
    """
    table = load_or_build(tables_dir(tables, data_dir), sheet)
    played = play_seeded(table, LEVELS[level], seed, games)
    click.echo(json.dumps({"sheet": sheet, "level": level, "seed": seed, **summary(played)}))
