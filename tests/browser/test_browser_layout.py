"""The pages read on a phone (390 px) with the longest names the service accepts (80
characters) and each game's largest table (Complots: 8 players; Pot de Vin: 6 players, alone or
in teams): no side scrolling of the page or of a table, no word cut in the middle, no name cut
short; in each language of the pages, whose longer words (Italian, Portuguese) must fit as well.
Screenshots in artifacts/."""

from __future__ import annotations

from typing import Any

import pytest

from games.records import services
from games.records.models import Game
from scoring.engine.complots.simulate import simulate as complots_simulate
from scoring.engine.potdevin.simulate import simulate as potdevin_simulate
from tests.accounts import first_club, make_user
from tests.browser.pages import (
    ARTIFACTS,
    LANGUAGES,
    PHONE,
    fits_phone,
    sign_in,
    use_language,
    whole_page,
)

# Names of 80 characters, the service's longest, made of long words as real names have them.
HEADS = [
    "Anne-Sophie",
    "Bartholomew",
    "Constantine",
    "Dorothea",
    "Evangeline",
    "Frederique",
    "Guillermina",
    "Hieronymus",
]
TAIL = " Marie-Thérèse de la Tour d'Auvergne-Lauraguais du Plessis-Praslin Montmorency"


def long_names(players: int) -> list[str]:
    names = [(HEADS[s] + TAIL)[:79].rstrip() + "s" for s in range(players)]
    names = [n + "x" * (80 - len(n)) for n in names]
    assert all(len(n) == 80 for n in names)
    return names


# In the page: words (between spaces, hyphens and slashes) drawn on more than one line; styles
# that cut words anywhere; text cut short with an ellipsis; containers that scroll sideways.
LAYOUT_PROBLEMS = """() => {
  const out = {cut: [], styles: [], clipped: [], scrolled: []};
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const el = node.parentElement;
    if (!el || el.closest('.vh, script, style, option, datalist, select, [hidden]')) continue;
    if (!el.getClientRects().length) continue;
    const re = /[^\\s\\-\\u2010-\\u2014\\/]+/g;
    let m;
    while ((m = re.exec(node.textContent))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
        .map(r => Math.round(r.top)));
      if (tops.size > 1) out.cut.push(m[0]);
    }
  }
  for (const el of document.querySelectorAll('body, body *')) {
    const s = getComputedStyle(el);
    if (s.overflowWrap === 'anywhere' || s.wordBreak === 'break-all') {
      out.styles.push(el.tagName + '.' + el.className);
    }
    if (!el.getClientRects().length || el.closest('.vh')) continue;
    if (s.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth) {
      out.clipped.push(el.textContent.trim().slice(0, 40));
    }
    if (['auto', 'scroll'].includes(s.overflowX) && el.scrollWidth > el.clientWidth + 1) {
      out.scrolled.push(el.tagName + '#' + el.id + '.' + el.className + ' ' +
        (el.firstElementChild ? el.firstElementChild.id : '') + ' ' + el.scrollWidth);
    }
  }
  return out;
}"""


def reads_on_a_phone(page: Any, name: str) -> None:
    """The page at 390 px: no side scrolling, no word cut, nothing clipped; a screenshot."""
    page.set_viewport_size(PHONE)
    whole_page(page, ARTIFACTS / f"{name}-390.png")
    fits_phone(page)
    problems = page.evaluate(LAYOUT_PROBLEMS)
    assert problems == {"cut": [], "styles": [], "clipped": [], "scrolled": []}, (name, problems)


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest, browser: Any, live_server: Any) -> str:
    """Each test runs once per language of the pages."""
    use_language(browser, live_server.url, request.param)
    return str(request.param)


@pytest.mark.django_db(transaction=True)
def test_an_eight_player_complots_game_reads_on_a_phone(
    live_server: Any, browser: Any, language: str
) -> None:
    user = make_user("alice")
    names = long_names(8)
    finished = services.game_import(
        club=first_club(),
        owner=user,
        documents=[complots_simulate(8, seed=12, variant="inquisitor", names=names)],
    )
    game = Game.objects.get(game_type="complots", status=Game.Status.FINISHED)
    assert finished
    in_progress = services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(club=first_club(), refs=names, created_by=user),
        game_type="complots",
        first_player=0,
        variant="inquisitor",
    )
    page = browser.new_page()
    sign_in(page, live_server.url, "alice")

    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("#counts-table").is_visible()
    reads_on_a_phone(page, f"complots-8-finished-long-names-{language}")

    page.goto(f"{live_server.url}/games/{in_progress.pk}/")
    reads_on_a_phone(page, f"complots-8-turn-long-names-{language}")
    page.click('label[for="action-captain"]')
    page.click('label[for="target-7"]')
    with page.expect_navigation():
        page.click("#turn-next")
    page.click('label[for="challenge_by-3"]')
    page.click('label[for="challenge_truthful-no"]')
    reads_on_a_phone(page, f"complots-8-turn-details-long-names-{language}")
    page.select_option("#id_loss_0_card", "duchess")
    with page.expect_navigation():
        page.click("#save-turn")
    page.wait_for_selector("#entry-review")
    reads_on_a_phone(page, f"complots-8-review-long-names-{language}")
    with page.expect_navigation():
        page.click("#review-save")
    reads_on_a_phone(page, f"complots-8-saved-long-names-{language}")


@pytest.mark.parametrize("teams", [False, True])
@pytest.mark.django_db(transaction=True)
def test_a_six_player_pot_de_vin_score_sheet_reads_on_a_phone(
    live_server: Any, browser: Any, language: str, teams: bool
) -> None:
    services.editions_ensure_builtin()
    user = make_user("alice")
    names = long_names(6)
    log = potdevin_simulate(6, seed=7, teams=teams, record_deal=False, names=names)
    services.game_import(club=first_club(), owner=user, documents=[log])
    game = Game.objects.get(game_type="pot-de-vin")
    assert game.status == Game.Status.FINISHED
    in_progress = services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(club=first_club(), refs=names, created_by=user),
        game_type="pot-de-vin",
        first_player=0,
        teams=log["teams"],
    )
    page = browser.new_page()
    sign_in(page, live_server.url, "alice")
    suffix = "teams" if teams else "alone"

    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("#scorepad-table").is_visible()
    reads_on_a_phone(page, f"potdevin-6-{suffix}-score-sheet-long-names-{language}")

    page.goto(f"{live_server.url}/games/{in_progress.pk}/")
    reads_on_a_phone(page, f"potdevin-6-{suffix}-round-long-names-{language}")
    first = log["rounds"][0]
    page.click(f'label[for="trump-{first["trump"]}"]')
    for i, play in enumerate(first["plays"]):
        page.click(f'label[for="play{i}-{"pass" if play.get("pass") else play["card"]}"]')
    with page.expect_navigation():
        page.click("#save-round")
    page.wait_for_selector("#entry-review")
    reads_on_a_phone(page, f"potdevin-6-{suffix}-review-long-names-{language}")
    with page.expect_navigation():
        page.click("#review-save")
    reads_on_a_phone(page, f"potdevin-6-{suffix}-saved-long-names-{language}")


@pytest.mark.django_db(transaction=True)
def test_the_other_pages_read_on_a_phone_with_long_names(
    live_server: Any, browser: Any, language: str
) -> None:
    services.editions_ensure_builtin()
    user = make_user("alice")
    names = long_names(8)
    services.game_import(
        club=first_club(),
        owner=user,
        documents=[
            complots_simulate(8, seed=3, variant="ambassador", names=names),
            potdevin_simulate(6, seed=2, record_deal=False, names=names[:6]),
        ],
    )
    services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(club=first_club(), refs=names[:3], created_by=user),
        game_type="pot-de-vin",
        first_player=0,
        location="Salle des fêtes de Saint-Rémy-de-Provence, à côté de la boulangerie",
        notes="Revanche: " + " ".join(names[:3]),
    )
    page = browser.new_page()
    base = live_server.url
    sign_in(page, base, "alice")
    reads_on_a_phone(page, f"home-long-names-{language}")
    player = Game.objects.filter(game_type="pot-de-vin").first().seats.get(seat=0).player_id
    page.goto(f"{base}/players/{player}/")
    reads_on_a_phone(page, f"player-long-names-{language}")
    page.goto(f"{base}/players/")
    reads_on_a_phone(page, f"players-long-names-{language}")
    in_progress = Game.objects.get(status=Game.Status.IN_PROGRESS)
    page.goto(f"{base}/games/{in_progress.pk}/")
    reads_on_a_phone(page, f"potdevin-3-notes-long-names-{language}")
    # Shared with the table: the game page with its links, and what a link opens.
    with page.expect_navigation():
        page.click("#share-new")
    assert page.locator("#shares textarea.share-url").count() == 1
    reads_on_a_phone(page, f"potdevin-3-shares-long-names-{language}")
    finished = Game.objects.filter(game_type="complots").get()
    page.goto(f"{base}/shared/{services.share_create(game=finished, by=user).token}/")
    assert page.locator("#shared-note").is_visible()
    reads_on_a_phone(page, f"complots-8-shared-long-names-{language}")
    page.goto(f"{base}/games/new/complots/")
    for seat, name in enumerate(names):
        page.fill(f"#id_player_{seat}", name)
    reads_on_a_phone(page, f"complots-new-game-long-names-{language}")
    page.goto(f"{base}/games/scorepad/pot-de-vin/")
    for seat, name in enumerate(names[:6]):
        page.fill(f"#id_player_{seat}", name)
    reads_on_a_phone(page, f"scorepad-entry-long-names-{language}")


# Labelled controls drawn over one another: the boxes of the visible controls and of their
# labels' words (a label's text, not its box: a word spilling out of a narrow column is what
# covers its neighbour), each pair that intersects by more than a pixel, but a label with its
# own control (a checkbox inside its label).
OVERLAPS = """() => {
  const shown = el => el.getClientRects().length &&
    !el.closest('.vh, [hidden], details:not([open]) > :not(summary)');
  const boxes = [];
  const controls = 'main input:not([type=hidden]), main select, main textarea';
  for (const c of document.querySelectorAll(controls)) {
    if (!shown(c)) continue;
    boxes.push({what: 'control ' + c.id, owner: c.id, r: c.getBoundingClientRect()});
  }
  for (const label of document.querySelectorAll('main label')) {
    if (!shown(label)) continue;
    const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      if (!node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        const what = 'label ' + node.textContent.trim();
        if (r.width > 0) boxes.push({what, owner: label.htmlFor, r});
      }
    }
  }
  const out = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.owner && a.owner === b.owner) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 1 && h > 1) out.push(a.what + ' / ' + b.what);
    }
  }
  return out;
}"""

# The header: its height, and whether "Sign out" shares its line with something else.
HEADER = """() => {
  const header = document.querySelector('header.site');
  const out = header.querySelector('.signout button');
  const mid = r => (r.top + r.bottom) / 2;
  const o = out.getBoundingClientRect();
  const near = 'nav > a, nav > form:not(.signout) > :not(label), nav li';
  const others = [...header.querySelectorAll(near)]
    .filter(el => el.getClientRects().length)
    .map(el => el.getBoundingClientRect());
  const beside = others.some(r => r.top <= mid(o) && mid(o) <= r.bottom);
  return {height: Math.round(header.getBoundingClientRect().height), beside};
}"""

# A header with two clubs, its menu in full (a club admin's), on a phone: at most this tall.
HEADER_MOST = 160


def nothing_overlaps(page: Any, name: str) -> None:
    page.set_viewport_size(PHONE)
    whole_page(page, ARTIFACTS / f"{name}-390.png")
    fits_phone(page)
    assert page.evaluate(OVERLAPS) == [], name


@pytest.mark.django_db(transaction=True)
def test_the_play_form_the_complots_result_sheet_and_a_two_club_header_hold_on_a_phone(
    live_server: Any, browser: Any, language: str
) -> None:
    from games.records.models import Club, Membership

    user = make_user("alice", role="admin")
    second = Club.objects.create(name="Les Amis du Jeu de Saint-Rémy-de-Provence", slug="amis")
    Membership.objects.create(club=second, user=user, role="member")
    page = browser.new_page()
    base = live_server.url
    sign_in(page, base, "alice")

    page.goto(f"{base}/plays/new/")
    assert page.locator("#club-switch").is_visible()
    nothing_overlaps(page, f"other-play-form-{language}")
    header = page.evaluate(HEADER)
    assert header["height"] <= HEADER_MOST, (language, header)
    assert header["beside"], f"'Sign out' alone on its line ({language})"

    page.goto(f"{base}/games/scorepad/complots/")
    assert page.locator("#out-order").is_visible()
    nothing_overlaps(page, f"complots-result-sheet-{language}")
    problems = page.evaluate(LAYOUT_PROBLEMS)
    assert problems["cut"] == [] and problems["scrolled"] == [], (language, problems)
