"""Date formats where Django's differ from how the language writes a date (FORMAT_MODULE_PATH);
every other format is Django's."""
