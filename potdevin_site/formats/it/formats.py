# Italian writes the day of the month without a leading zero: "3 novembre 2026".
DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "l j F Y H:i"
