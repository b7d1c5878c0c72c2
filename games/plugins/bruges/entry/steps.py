"""The steps of the round entry: the value of the button pressed (``step``)."""

CHANGE = "change"  # from the review: the last turn back in the form, every step kept
RESUME = "resume"  # a draft kept by the script brought back after a reload
DRAW, DICE, PHASE2, UPKEEP, UPKEEP_PENALTY, TURN, MORE, PENALTY, PASS, UNDO, RESTART, SAVE = (
    "draw",
    "dice",
    "phase2",
    "upkeep",
    "upkeep_penalty",
    "turn",
    "more",
    "penalty",
    "pass",
    "undo",
    "restart",
    "save",
)
BUTTONS = (
    RESUME,
    DRAW,
    DICE,
    PHASE2,
    UPKEEP,
    UPKEEP_PENALTY,
    TURN,
    MORE,
    PENALTY,
    PASS,
    UNDO,
    RESTART,
    SAVE,
    CHANGE,
)
