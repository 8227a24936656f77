"""axe-core in the page: the accessibility findings a browser test asserts
there are none of (serious and critical), at both sizes and in both colour
schemes. axe-core is the one tools/lint's npm install puts in its
node_modules (make lint-tools)."""
from __future__ import annotations

from tests.support.browser import SIZES
from tests.support.paths import ROOT

AXE = ROOT / "tools" / "lint" / "node_modules" / "axe-core" / "axe.min.js"
SCHEMES = ("light", "dark")

# axe-core's violations that hurt most (serious, critical): each rule's id,
# and where, in a few words
FINDINGS = """async () => {
  const found = await axe.run(document, { resultTypes: ["violations"] });
  return found.violations.filter((v) => ["serious", "critical"].includes(v.impact)).map((v) =>
    `${v.id} (${v.impact}, ${v.nodes.length}): ` + v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | "));
}"""


def findings(page, label: str, shots) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, at
    both sizes and in both colour schemes, each said with where it was; a
    screenshot of each in the dark."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(path=str(AXE))
    found = []
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            found += [f"{label} ({size}, {scheme}): {finding}" for finding in page.evaluate(FINDINGS)]
            if scheme == "dark":
                page.screenshot(path=str(shots / f"dark-{label.replace(' ', '-')}-{size}.png"))
    page.emulate_media(color_scheme="light")
    return found
