"""The error summary of a refused form: one mechanism for every page (the GOV.UK pattern).

``base.html`` asks ``{% page_errors as page_errors %}`` for the forms in its context with
errors (any Django form or formset the view passed: ``form``, ``options``, ``sheet``,
``entry_form``, ``finish_form``, ``password``, ... and those one list or dict deep), prefixes
the title with "Error:", and wraps what ``<main>`` shows in ``{% error_summary page_errors %}``.
That tag renders the page's content first, reads the ids it holds, and puts before it a box,
"There is a problem", with one link per error to the element the error is about:

- a field's error: the control posted under the field's name (its first radio or checkbox),
  else the field's own id (``id_<name>``), else the element (or its nearest ancestor with an
  id) showing the error's words;
- an error of the whole form: the ``<form>`` holding its fields, else where its words are.

Every link goes to an id on the page (never a guess); the links are in the page's order.
``static/js/errors.js`` moves the focus to the box; without scripts it is still the first
thing in ``<main>``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from django import template
from django.forms import BaseForm, BaseFormSet
from django.forms.forms import NON_FIELD_ERRORS
from django.template.base import FilterExpression, Node, NodeList, Parser, Token
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

SUMMARY_TEMPLATE = "web/_error_summary.html"
VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
}  # fmt: skip
CONTROLS = {"input", "select", "textarea", "button"}


def _words(text: str) -> str:
    return " ".join(text.split())


def _forms_in(value: Any, depth: int = 0) -> Iterator[BaseForm]:
    """The forms in a context value: a form, a formset's forms, or those of a list or dict
    (one level deep). ``type()``, not ``isinstance``: a lazy value stays unevaluated."""
    kind = type(value)
    if issubclass(kind, BaseForm):
        yield value
    elif issubclass(kind, BaseFormSet):
        yield from value.forms
    elif depth < 2 and issubclass(kind, (list, tuple)):
        for item in value[:500]:
            yield from _forms_in(item, depth + 1)
    elif depth < 2 and issubclass(kind, dict):
        for item in list(value.values())[:500]:
            yield from _forms_in(item, depth + 1)


def refused_forms(dicts: Iterable[dict[str, Any]]) -> list[BaseForm]:
    """The bound forms with errors among the values of ``dicts``, each once."""
    found: dict[int, BaseForm] = {}
    for values in dicts:
        for value in list(values.values()):
            for form in _forms_in(value):
                if form.is_bound and form.errors and id(form) not in found:
                    found[id(form)] = form
    return list(found.values())


@register.simple_tag(takes_context=True)
def page_errors(context: template.Context) -> list[BaseForm]:
    """The forms of the page with errors (empty when nothing was refused)."""
    return refused_forms(context.dicts)


@dataclass
class _Element:
    tag: str
    id: str | None
    position: int


class _Page(HTMLParser):
    """What the summary needs of the rendered content: the ids, the controls by name (with
    their ``<form>``), and the texts with their nearest id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: dict[str, int] = {}
        self.hidden: set[str] = set()
        self.named: dict[str, tuple[str, str | None]] = {}
        self.texts: list[tuple[str, str]] = []
        self.stack: list[_Element] = []
        self.count = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.count += 1
        values = dict(attrs)
        ident = values.get("id") or None
        if ident is not None and ident not in self.ids:
            self.ids[ident] = self.count
            if values.get("type") == "hidden":
                self.hidden.add(ident)  # nothing to see nor focus there
        name = values.get("name")
        if (
            tag in CONTROLS
            and name
            and ident
            and values.get("type") != "hidden"
            and name not in self.named
        ):
            form = next((e.id for e in reversed(self.stack) if e.tag == "form"), None)
            self.named[name] = (ident, form)
        if tag not in VOID:
            self.stack.append(_Element(tag, ident, self.count))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1].tag == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        text = _words(data)
        if not text:
            return
        near = next((e for e in reversed(self.stack) if e.id), None)
        if near is not None and near.tag not in ("script", "style", "template"):
            self.texts.append((text, near.id or ""))

    def where_said(self, message: str) -> str | None:
        words = _words(message)
        return next((ident for text, ident in self.texts if words and words in text), None)


@dataclass(frozen=True)
class Link:
    href: str
    text: str
    position: int


def _field_anchor(form: BaseForm, name: str, message: str, page: _Page) -> str | None:
    html_name = form.add_prefix(name)
    if html_name in page.named:
        return page.named[html_name][0]
    if name in form.fields:
        own = form[name].id_for_label
        if own and own in page.ids and own not in page.hidden:
            return own
    return page.where_said(message)


def _form_anchor(form: BaseForm, message: str, page: _Page) -> str | None:
    names = [form.add_prefix(name) for name in form.fields]
    holders = [page.named[name] for name in names if name in page.named]
    whole = next((f for _, f in holders if f), None)
    return whole or page.where_said(message) or (holders[0][0] if holders else None)


def summary_links(forms: Iterable[BaseForm], content: str) -> list[Link]:
    """One link per error of ``forms``, to an id in ``content``, in the page's order."""
    page = _Page()
    page.feed(content)
    page.close()
    links = []
    for form in forms:
        for name, errors in form.errors.items():
            for error in errors:
                message = str(error)
                if name == NON_FIELD_ERRORS:
                    anchor = _form_anchor(form, message, page)
                else:
                    anchor = _field_anchor(form, name, message, page) or _form_anchor(
                        form, message, page
                    )
                anchor = anchor or "main"
                links.append(Link(f"#{anchor}", message, page.ids.get(anchor, 0)))
    return sorted(links, key=lambda link: link.position)


class ErrorSummaryNode(Node):
    child_nodelists = ("nodelist",)

    def __init__(self, forms: FilterExpression, nodelist: NodeList) -> None:
        self.forms = forms
        self.nodelist = nodelist

    def render(self, context: template.Context) -> SafeString:
        content = self.nodelist.render(context)
        forms = self.forms.resolve(context) or []
        if not forms:
            return mark_safe(content)
        links = summary_links(forms, content)
        summary = context.template.engine.get_template(SUMMARY_TEMPLATE).render(
            context.new({"links": links})
        )
        return mark_safe(summary + content)


@register.tag("error_summary")
def error_summary(parser: Parser, token: Token) -> ErrorSummaryNode:
    """``{% error_summary forms %}…{% enderror_summary %}``: the content, after the summary of
    the errors of ``forms`` (``page_errors``) when there are some."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("error_summary takes the forms: {% error_summary f %}")
    nodelist = parser.parse(("enderror_summary",))
    parser.delete_first_token()
    return ErrorSummaryNode(parser.compile_filter(bits[1]), nodelist)
