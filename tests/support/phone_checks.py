"""What "reads well on a phone" means for a page, measured in the browser by JavaScript: see
:data:`LAYOUT_JS` and :func:`layout_problems`. The tests of the HTML mails and of the web archive look at
every page with it, at 375 and at 1000 px; :func:`mail_html` shows a mail's HTML part as a mail client
would (its inline pictures in place)."""

from __future__ import annotations

import base64
import email
import email.policy
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any

from pbem.core.svg import MIN_TEXT

if TYPE_CHECKING:
    from browser import Browser

PHONE, DESKTOP = 375, 1000
WIDTHS = (PHONE, DESKTOP)

LAYOUT_JS = r"""(async () => {
  const problems = [];
  const page = document.scrollingElement;
  if (page.scrollWidth > window.innerWidth)
    problems.push(`the page is ${page.scrollWidth} px wide in a ${window.innerWidth} px window`);
  const shown = e => e.getClientRects().length > 0;
  // No word of a heading, paragraph, list item or table cell broken across lines, but a word wider
  // than its box (an address, the seed commitment): each word's range is one box on one line. In
  // headings and table cells a word runs from space to space (a game's name "spring-2-2" is one);
  // prose (paragraphs, list items, cells of class "wrap") may end a line after a hyphen.
  const blocks = 'th, td, h1, h2, h3, p, li';
  const prose = 'p, li, td.wrap';
  for (const block of document.querySelectorAll(blocks)) {
    if (!shown(block)) continue;
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent.closest('pre') || parent.closest(blocks) !== block) continue;
      for (const word of node.data.matchAll(block.matches(prose) ? /[^\s-]+/g : /\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const boxes = Array.from(range.getClientRects()).filter(r => r.width > 0);
        const width = boxes.reduce((sum, r) => sum + r.width, 0);
        if (boxes.length > 1 && width <= block.clientWidth)
          problems.push(`"${word[0]}" is broken across ${boxes.length} lines in <${block.tagName.toLowerCase()}>`);
      }
    }
  }
  // Every <pre> keeps its lines whole; one wider than its box scrolls in it (not the page).
  for (const pre of document.querySelectorAll('pre')) {
    if (!shown(pre)) continue;
    const style = getComputedStyle(pre);
    if (style.whiteSpace !== 'pre')
      problems.push(`a <pre> wraps its lines (white-space: ${style.whiteSpace}): ${pre.textContent.slice(0, 40)}`);
    const scrolls = ['auto', 'scroll'].includes(style.overflowX);
    let box = pre.parentElement;
    while (box && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
    if (pre.scrollWidth > pre.clientWidth + 1 && !scrolls)
      problems.push(`a <pre> is wider than its box and does not scroll: ${pre.textContent.slice(0, 40)}`);
    if (pre.getBoundingClientRect().right > window.innerWidth + 1 && !(box && box !== page))
      problems.push(`a <pre> runs off the screen: ${pre.textContent.slice(0, 40)}`);
  }
  // A refusal's caret stands under the refused column, in the line above it.
  let carets = 0;
  for (const pre of document.querySelectorAll('td pre')) {
    const node = pre.firstChild;
    if (!node || node.nodeType !== 3) continue;
    const lines = node.data.split('\n');
    const at = lines.findIndex((line, i) => i > 0 && /^ *\^$/.test(line));
    if (at < 0) continue;
    const column = lines[at].length - 1;
    const start = lines.slice(0, at).reduce((sum, line) => sum + line.length + 1, 0);
    const above = start - lines[at - 1].length - 1;
    const x = offset => { const r = document.createRange(); r.setStart(node, offset); r.setEnd(node, offset + 1);
                          return r.getClientRects()[0]; };
    const caret = x(start + column), under = x(above + column);
    carets += 1;
    if (!caret || !under || Math.abs(caret.left - under.left) > 0.5 || caret.top <= under.top)
      problems.push(`the caret of "${lines[at - 1]}" is not under column ${column + 1}`);
  }
  // Pictures: how much they are scaled as drawn, and the smallest letters of an SVG one.
  const pictures = [];
  for (const img of document.images) {
    if (!shown(img) || !img.naturalWidth) continue;
    let smallest = null;
    if (/\.svg$|^data:image\/svg/.test(img.currentSrc)) {
      const svg = await (await fetch(img.currentSrc)).text();
      const sizes = Array.from(svg.matchAll(/font-size="([\d.]+)"/g), m => parseFloat(m[1]));
      smallest = sizes.length ? Math.min(...sizes) : null;
    }
    pictures.push({alt: img.alt, scale: img.getBoundingClientRect().width / img.naturalWidth, smallest});
  }
  return {problems, carets, pictures};
})()"""
"""Returns ``{problems: [...], carets: n, pictures: [{alt, scale, smallest}]}`` for the page shown."""


async def layout_problems(browser: Browser) -> tuple[list[str], int]:
    """What does not read well on the page the browser shows at its width (none when all is well: no
    sideways scrolling of the page, no word broken inside itself, no folded <pre> line, every caret under
    its column, picture letters of at least 11 px as drawn), and how many carets it checked."""
    look: dict[str, Any] = await browser.evaluate(LAYOUT_JS)
    problems = list(look["problems"])
    for picture in look["pictures"]:
        letters = (picture["smallest"] or MIN_TEXT) * picture["scale"]
        if letters < 11 - 0.01:
            problems.append(f"the letters of picture {picture['alt']!r} are {letters:.1f} px as drawn")
    return problems, int(look["carets"])


def mail_html(raw: bytes) -> str:
    """The HTML part of the mail ``raw`` as a mail client shows it: each ``cid:`` reference replaced by
    its related part, as a data: URI."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    part = message.get_body(preferencelist=("html",))
    assert part is not None, "the mail has an HTML part"
    html = part.get_content()
    for related in message.walk():
        if related["Content-ID"]:
            data = base64.b64encode(related.get_content()).decode()
            html = html.replace(f"cid:{related['Content-ID'].strip('<>')}",
                                f"data:{related.get_content_type()};base64,{data}")
    return str(html)
