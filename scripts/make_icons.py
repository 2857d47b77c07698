"""Draw the installable app's icons and the link-preview card from the site's logo (the die of
``app/static/img/favicon.svg``: a cream die showing five, its centre pip red) in the site's
palette, as PNG files under ``app/static/img/``:

- ``icon-192.png``, ``icon-512.png``: the die on a rounded felt-green tile (the manifest's
  ``any`` icons);
- ``icon-maskable-512.png``: the die inside the central safe circle of a full-bleed felt square,
  so that any mask a launcher applies (circle, squircle) keeps it whole;
- ``apple-touch-icon.png`` (180×180): full-bleed, as iOS rounds the corners itself;
- ``og-card.png`` (1200×630): the card a shared link shows, with the site's name.

Run ``.venv/bin/python scripts/make_icons.py`` after changing the logo or the palette, and commit
the PNG files: the site serves them as they are. Pillow draws them (a dependency of fpdf2); the
card's lettering is DejaVu Serif Bold, from the system's fonts (Debian's fonts-dejavu-core).
"""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

IMG = Path(__file__).resolve().parents[1] / "app" / "static" / "img"
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
SUPERSAMPLE = 4  # drawn this many times larger, then reduced: smooth edges without anti-aliasing

FELT_LIGHT = (38, 104, 77)  # --felt-1
FELT = (28, 82, 60)  # --felt-2, the theme colour
FELT_DARK = (17, 53, 38)  # --felt-3
FELT_EDGE = (23, 70, 52)  # the favicon's outline
PAPER = (251, 246, 233)  # --paper
INK = (43, 33, 24)  # --ink
RED = (179, 38, 30)  # the centre pip
ON_FELT = (246, 241, 227)  # --on-felt
ON_FELT_MUTED = (207, 226, 213)  # --on-felt-muted
ACCENT = (240, 180, 60)  # --accent


def draw_die(draw: ImageDraw.ImageDraw, left: float, top: float, size: float) -> None:
    """The logo's die, ``size`` wide, its top-left corner at (left, top): the favicon's 56-unit
    die (radius 13, pips of radius 5.5 at 16 and 40 units from its corner, the centre red)."""
    unit = size / 56
    draw.rounded_rectangle((left, top, left + size, top + size), radius=13 * unit, fill=PAPER)
    for x, y, colour in ((16, 16, INK), (40, 16, INK), (28, 28, RED), (16, 40, INK),
                         (40, 40, INK)):
        cx, cy, r = left + x * unit, top + y * unit, 5.5 * unit
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)


def square_icon(size: int, *, full_bleed: bool, die_share: float) -> Image.Image:
    """A ``size``-pixel icon: the die, ``die_share`` of the width, centred on felt green; on a
    rounded tile with a transparent margin unless ``full_bleed``."""
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if full_bleed:
        draw.rectangle((0, 0, big, big), fill=FELT)
    else:
        margin = big * 0.04
        draw.rounded_rectangle((margin, margin, big - margin, big - margin), radius=big * 0.22,
                               fill=FELT, outline=FELT_EDGE, width=round(big * 0.012))
    die = big * die_share
    draw_die(draw, (big - die) / 2, (big - die) / 2, die)
    reduced = image.resize((size, size), Image.LANCZOS)
    return reduced.convert("RGB") if full_bleed else reduced  # opaque: no alpha channel at all


def vertical_gradient(width: int, height: int, top: tuple, bottom: tuple) -> Image.Image:
    """A ``width``×``height`` image fading from ``top`` to ``bottom``."""
    column = Image.new("RGB", (1, height))
    for y in range(height):
        share = y / max(1, height - 1)
        colour = tuple(round(a + (b - a) * share) for a, b in zip(top, bottom, strict=True))
        column.putpixel((0, y), colour)
    return column.resize((width, height))


def card() -> Image.Image:
    """The 1200×630 link-preview card: the die, the site's name, what it is, on the felt."""
    width, height = 1200 * SUPERSAMPLE // 2, 630 * SUPERSAMPLE // 2
    scale = SUPERSAMPLE / 2
    image = vertical_gradient(width, height, FELT_LIGHT, FELT_DARK)
    draw = ImageDraw.Draw(image)
    die = 260 * scale
    draw_die(draw, 110 * scale, (height - die) / 2, die)
    title = ImageFont.truetype(str(FONT_DIR / "DejaVuSerif-Bold.ttf"), round(96 * scale))
    line = ImageFont.truetype(str(FONT_DIR / "DejaVuSans.ttf"), round(38 * scale))
    text_left = 440 * scale
    draw.text((text_left, 200 * scale), "Yacht Daily", font=title, fill=ON_FELT)
    draw.rectangle((text_left, 335 * scale, text_left + 120 * scale, 343 * scale), fill=ACCENT)
    draw.text((text_left, 372 * scale), "Same dice for everyone, every day.", font=line,
              fill=ON_FELT_MUTED)
    draw.text((text_left, 425 * scale), "Every roll checkable.", font=line, fill=ON_FELT_MUTED)
    return image.resize((1200, 630), Image.LANCZOS)


def main() -> None:
    """Write every icon and the card into ``app/static/img/``."""
    outputs = {
        "icon-192.png": square_icon(192, full_bleed=False, die_share=0.62),
        "icon-512.png": square_icon(512, full_bleed=False, die_share=0.62),
        # The maskable safe zone is the centred circle of 80% of the width: the die's corners
        # (its diagonal is √2 of its side) stay inside it at 54%.
        "icon-maskable-512.png": square_icon(512, full_bleed=True, die_share=0.54),
        "apple-touch-icon.png": square_icon(180, full_bleed=True, die_share=0.6),
        "og-card.png": card(),
    }
    for name, image in outputs.items():
        image.save(IMG / name, optimize=True)
        print(f"{IMG / name}: {image.width}×{image.height}")


if __name__ == "__main__":
    main()
