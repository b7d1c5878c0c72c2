/* Invitation and share links (templates/web/club_invitations.html, templates/web/_shares.html):
   "Copy link" copies the link with the Clipboard API, or else selects it for the phone's own
   copy; "Share…" hands it to the phone's share sheet (the Web Share API), only where the phone
   has one. Without this script the link is still there, whole, to read and select. */
(function () {
  "use strict";
  var boxes = document.querySelectorAll("[data-link]");
  Array.prototype.forEach.call(boxes, function (box) {
    var text = box.querySelector("[data-link-text]");
    var copy = box.querySelector("[data-copy]");
    var share = box.querySelector("[data-share]");
    var said = box.querySelector("[data-said]");
    if (!text) return;
    var url = text.value.trim();

    function say(words) {
      if (!said) return;
      // Emptied first, so that the same words said again are announced again.
      said.textContent = "";
      window.setTimeout(function () {
        said.textContent = words;
      }, 50);
    }

    function selectLink() {
      text.focus();
      text.select();
      text.setSelectionRange(0, text.value.length);
    }

    function copyBySelection() {
      selectLink();
      var copied = false;
      try {
        copied = document.execCommand("copy");
      } catch (e) {
        copied = false;
      }
      say(copied ? gettext("Copied.") : gettext("The link is selected: copy it with your phone's menu."));
    }

    if (copy) {
      copy.hidden = false;
      copy.addEventListener("click", function () {
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(url).then(function () {
            say(gettext("Copied."));
          }, copyBySelection);
        } else {
          copyBySelection();
        }
      });
    }

    if (share && typeof navigator.share === "function") {
      share.hidden = false;
      share.addEventListener("click", function () {
        var data = { title: share.getAttribute("data-title") || document.title, url: url };
        if (navigator.canShare && !navigator.canShare(data)) {
          copyBySelection();
          return;
        }
        navigator.share(data).catch(function () {
          /* Closed without sharing: nothing to say. */
        });
      });
    }
  });
})();
