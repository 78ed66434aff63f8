#pragma once
#include <libnotify/notify.h>

// Wrappers for what Swift cannot call: GObject's variadic property accessors and libnotify's macros.
// Every wrapper is prefixed `clibnotify_`. Only W8Libnotify imports this module.

/// NOTIFY_EXPIRES_DEFAULT: the server picks how long the notification stays.
static const gint clibnotify_expires_default = NOTIFY_EXPIRES_DEFAULT;

/// NOTIFY_EXPIRES_NEVER: the notification stays until the person dismisses it.
static const gint clibnotify_expires_never = NOTIFY_EXPIRES_NEVER;

/// `g_object_set (notification, "id", id, NULL)`: the server id that `show` replaces and `close` closes.
static inline void clibnotify_notification_set_id(NotifyNotification *notification, gint id) {
    g_object_set(G_OBJECT(notification), "id", id, NULL);
}

/// `g_object_get (notification, "id", &id, NULL)`: the id the server returned from the last `show`.
static inline gint clibnotify_notification_get_id(NotifyNotification *notification) {
    gint id = 0;
    g_object_get(G_OBJECT(notification), "id", &id, NULL);
    return id;
}

/// `g_list_free_full (list, g_free)`: frees the list `notify_get_server_caps` returns, strings included.
static inline void clibnotify_free_string_list(GList *list) {
    g_list_free_full(list, g_free);
}
