#include "cw8gettext.h"

#include <langinfo.h>
#include <libintl.h>
#include <locale.h>
#include <stddef.h>

/// The environment's LC_TIME and LC_NUMERIC as locale objects of their own, made by cw8_gettext_bind; (locale_t)0
/// when not installed. Written once, before any reader runs (the Swift side binds under a once-only initializer).
static locale_t time_locale;
static locale_t numeric_locale;

int cw8_gettext_bind(const char *domain, const char *directory) {
    const char *messages = setlocale(LC_MESSAGES, "");
    setlocale(LC_CTYPE, "");
    bindtextdomain(domain, directory);
    bind_textdomain_codeset(domain, "UTF-8");
    time_locale = newlocale(LC_TIME_MASK, "", (locale_t)0);
    numeric_locale = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);
    return messages == NULL ? -1 : 0;
}

const char *cw8_dgettext(const char *domain, const char *msgid) { return dgettext(domain, msgid); }

const char *cw8_dngettext(const char *domain, const char *singular, const char *plural, unsigned long n) {
    return dngettext(domain, singular, plural, n);
}

const char *cw8_time_name(int item) {
    if (time_locale == (locale_t)0 || item < 0 || item > 18) return NULL;
    return item < 7 ? nl_langinfo_l(ABDAY_1 + item, time_locale) : nl_langinfo_l(ABMON_1 + item - 7, time_locale);
}

const char *cw8_decimal_separator(void) {
    if (numeric_locale == (locale_t)0) return ".";
    const char *radix = nl_langinfo_l(RADIXCHAR, numeric_locale);
    return radix == NULL || radix[0] == '\0' ? "." : radix;
}
