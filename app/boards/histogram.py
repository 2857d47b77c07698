"""The score distribution as SVG geometry, so the server draws the chart (no chart library)."""

from dataclasses import dataclass

WIDTH = 480
HEIGHT = 220
MARGIN_LEFT = 8
MARGIN_RIGHT = 8
MARGIN_TOP = 22
MARGIN_BOTTOM = 34
GAP = 3


@dataclass(frozen=True)
class Bar:
    """One bucket of the distribution, placed in the chart."""

    low: int
    high: int
    count: int
    x: float
    y: float
    width: float
    height: float
    is_yours: bool

    @property
    def middle(self) -> float:
        """The bar's horizontal centre."""
        return self.x + self.width / 2


@dataclass(frozen=True)
class Histogram:
    """A chart's bars and frame."""

    bars: tuple[Bar, ...]
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def baseline(self) -> int:
        """The y of the horizontal axis."""
        return self.height - MARGIN_BOTTOM

    @property
    def label_every(self) -> int:
        """Label one bucket in this many, so the labels never overlap."""
        return max(1, -(-len(self.bars) // 8))


def histogram(distribution: list[dict], your_total: int | None = None) -> Histogram:
    """Lay out the buckets ``[{"from", "to", "count"}]`` as bars scaled to the largest count."""
    buckets = [b for b in distribution if isinstance(b.get("count"), int)]
    if not buckets:
        return Histogram(())
    tallest = max(max(b["count"] for b in buckets), 1)
    plot_width = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_height = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    slot = plot_width / len(buckets)
    bars = []
    for index, bucket in enumerate(buckets):
        height = plot_height * bucket["count"] / tallest
        bars.append(
            Bar(
                low=bucket["from"],
                high=bucket["to"],
                count=bucket["count"],
                x=round(MARGIN_LEFT + index * slot + GAP / 2, 2),
                y=round(HEIGHT - MARGIN_BOTTOM - height, 2),
                width=round(slot - GAP, 2),
                height=round(height, 2),
                is_yours=your_total is not None and bucket["from"] <= your_total <= bucket["to"],
            )
        )
    return Histogram(tuple(bars))
