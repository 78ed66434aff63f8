// gettext's calls, which Glibc's Swift module does not export (libintl.h), as small C functions; and the locale's
// names of days and months and its decimal separator, read from a locale object of their own so that the process's
// numeric locale, which machine formats rely on, stays "C".
#pragma once

/// Reads the environment as gettext reads it: `setlocale(LC_MESSAGES, "")` and `setlocale(LC_CTYPE, "")` (then
/// `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG` decide the language), binds `domain` to `directory`, its output in
/// UTF-8. Loads no catalog: gettext opens one at the first look-up. Returns 0, or -1 when the environment's locale
/// is not installed (English is then shown, as every gettext program does).
int cw8_gettext_bind(const char *domain, const char *directory);

/// `dgettext(domain, msgid)`.
const char *cw8_dgettext(const char *domain, const char *msgid);

/// `dngettext(domain, singular, plural, n)`.
const char *cw8_dngettext(const char *domain, const char *singular, const char *plural, unsigned long n);

/// The environment's LC_TIME names as a locale object would give them: `item` is 0-6 for the abbreviated days
/// (Sunday first), 7-18 for the abbreviated months (January first). NULL before cw8_gettext_bind, or when the
/// locale is not installed.
const char *cw8_time_name(int item);

/// The environment's LC_NUMERIC decimal separator ("," for de_DE.UTF-8); "." when its locale is not installed.
const char *cw8_decimal_separator(void);
