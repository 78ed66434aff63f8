#pragma once
#include <stdint.h>

#include "cdynamiclibrary.h"

// The part of libnotify's, GIO's, GObject's and GLib's C API that W8Libnotify calls, declared here and resolved at
// run time: `clibnotify_load` dlopens libnotify.so.4 the first time a notification is posted, closed or asked about,
// so the commands that post nothing never load libnotify, gdk-pixbuf, GIO, GObject, GLib and the libraries they pull
// in. The types, enum values and struct layouts are the libraries' own (GLib's and libnotify's ABI is stable within
// their sonames; the values are those of the headers, GLib 2.74 and libnotify 0.8); the functions are `static
// inline` wrappers with the libraries' names that call through the table. Only W8Libnotify imports this module.

typedef char gchar;
typedef int gint;
typedef unsigned int guint;
typedef gint gboolean;
typedef void *gpointer;
typedef uint32_t GQuark;

/// GLib's error: the layout of `struct _GError`.
typedef struct _GError {
    GQuark domain;
    gint code;
    gchar *message;
} GError;

/// GLib's doubly linked list: the layout of `struct _GList`.
typedef struct _GList GList;
struct _GList {
    gpointer data;
    GList *next;
    GList *prev;
};

/// A libnotify notification, as GObject lays it out (W8Libnotify never reads its fields).
typedef struct _NotifyNotification {
    gpointer g_type_instance;
    guint ref_count;
    gpointer qdata;
    gpointer priv;
} NotifyNotification;

typedef struct _GdkPixbuf GdkPixbuf;
typedef struct _GDBusConnection GDBusConnection;
typedef struct _GVariant GVariant;
typedef struct _GVariantType GVariantType;
typedef struct _GCancellable GCancellable;
typedef struct _GMainContext GMainContext;

typedef enum { NOTIFY_URGENCY_LOW = 0, NOTIFY_URGENCY_NORMAL = 1, NOTIFY_URGENCY_CRITICAL = 2 } NotifyUrgency;
typedef struct _GSettings GSettings;
typedef struct _GSettingsSchema GSettingsSchema;
typedef struct _GSettingsSchemaSource GSettingsSchemaSource;
typedef unsigned long gulong;
typedef unsigned long gsize;
typedef uint32_t guint32;
typedef uint64_t guint64;

typedef enum { G_BUS_TYPE_SYSTEM = 1, G_BUS_TYPE_SESSION = 2 } GBusType;
typedef enum { G_DBUS_CALL_FLAGS_NONE = 0, G_DBUS_CALL_FLAGS_NO_AUTO_START = 1 } GDBusCallFlags;
typedef enum { G_DBUS_SIGNAL_FLAGS_NONE = 0 } GDBusSignalFlags;
typedef enum { G_BUS_NAME_WATCHER_FLAGS_NONE = 0 } GBusNameWatcherFlags;
typedef enum { G_IO_IN = 1, G_IO_ERR = 8, G_IO_HUP = 16 } GIOCondition;
typedef enum { G_LOG_LEVEL_WARNING = 1 << 4 } GLogLevelFlags;

/// The codes of G_DBUS_ERROR that W8Libnotify tells apart.
typedef enum {
    G_DBUS_ERROR_SERVICE_UNKNOWN = 2,
    G_DBUS_ERROR_NAME_HAS_NO_OWNER = 3,
    G_DBUS_ERROR_NO_REPLY = 4,
    G_DBUS_ERROR_NO_SERVER = 11,
    G_DBUS_ERROR_TIMEOUT = 12,
    G_DBUS_ERROR_DISCONNECTED = 15,
    G_DBUS_ERROR_FILE_NOT_FOUND = 17,
    G_DBUS_ERROR_TIMED_OUT = 20,
    G_DBUS_ERROR_SPAWN_EXEC_FAILED = 23,
    G_DBUS_ERROR_SPAWN_FORK_FAILED = 24,
    G_DBUS_ERROR_SPAWN_CHILD_EXITED = 25,
    G_DBUS_ERROR_SPAWN_CHILD_SIGNALED = 26,
    G_DBUS_ERROR_SPAWN_FAILED = 27,
    G_DBUS_ERROR_SPAWN_SETUP_FAILED = 28,
    G_DBUS_ERROR_SPAWN_CONFIG_INVALID = 29,
    G_DBUS_ERROR_SPAWN_SERVICE_INVALID = 30,
    G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND = 31,
    G_DBUS_ERROR_SPAWN_PERMISSIONS_INVALID = 32,
    G_DBUS_ERROR_SPAWN_FILE_INVALID = 33,
    G_DBUS_ERROR_SPAWN_NO_MEMORY = 34,
} GDBusError;

/// The codes of G_IO_ERROR that W8Libnotify tells apart.
typedef enum {
    G_IO_ERROR_NOT_FOUND = 1,
    G_IO_ERROR_CLOSED = 18,
    G_IO_ERROR_TIMED_OUT = 24,
    G_IO_ERROR_CONNECTION_REFUSED = 39,
} GIOErrorEnum;

typedef void (*GFreeFunc)(gpointer data);
typedef void (*GDestroyNotify)(gpointer data);
typedef void (*GLogFunc)(const gchar *log_domain, GLogLevelFlags log_level, const gchar *message, gpointer user_data);
typedef void (*GDBusSignalCallback)(GDBusConnection *connection, const gchar *sender_name, const gchar *object_path,
                                    const gchar *interface_name, const gchar *signal_name, GVariant *parameters,
                                    gpointer user_data);
typedef void (*GBusNameAppearedCallback)(GDBusConnection *connection, const gchar *name, const gchar *name_owner,
                                         gpointer user_data);
typedef void (*GBusNameVanishedCallback)(GDBusConnection *connection, const gchar *name, gpointer user_data);
typedef gboolean (*GSourceFunc)(gpointer user_data);
typedef gboolean (*GUnixFDSourceFunc)(gint fd, GIOCondition condition, gpointer user_data);
typedef void (*GCallback)(void);
typedef void (*NotifyActionCallback)(NotifyNotification *notification, char *action, gpointer user_data);

// Every function used: F(return type, name, parameters, arguments), V(name, parameters, arguments) for void ones.
#define CLIBNOTIFY_FUNCTIONS(F, V)                                                                                    \
    F(gboolean, notify_init, (const char *app_name), (app_name))                                                      \
    F(gboolean, notify_is_initted, (void), ())                                                                        \
    F(GList *, notify_get_server_caps, (void), ())                                                                    \
    F(gboolean, notify_get_server_info, (char **name, char **vendor, char **version, char **spec_version),           \
      (name, vendor, version, spec_version))                                                                          \
    F(NotifyNotification *, notify_notification_new, (const char *summary, const char *body, const char *icon),       \
      (summary, body, icon))                                                                                          \
    V(notify_notification_set_category, (NotifyNotification * notification, const char *category),                   \
      (notification, category))                                                                                       \
    V(notify_notification_set_urgency, (NotifyNotification * notification, NotifyUrgency urgency),                    \
      (notification, urgency))                                                                                        \
    V(notify_notification_set_timeout, (NotifyNotification * notification, gint timeout), (notification, timeout))    \
    V(notify_notification_set_hint, (NotifyNotification * notification, const char *key, GVariant *value),           \
      (notification, key, value))                                                                                     \
    V(notify_notification_add_action,                                                                                 \
      (NotifyNotification * notification, const char *action, const char *label, NotifyActionCallback callback,     \
       gpointer user_data, GFreeFunc free_func),                                                                      \
      (notification, action, label, callback, user_data, free_func))                                                 \
    V(notify_notification_set_image_from_pixbuf, (NotifyNotification * notification, GdkPixbuf * pixbuf),           \
      (notification, pixbuf))                                                                                         \
    F(GdkPixbuf *, gdk_pixbuf_new_from_file, (const char *filename, GError **error), (filename, error))               \
    F(gboolean, notify_notification_show, (NotifyNotification * notification, GError * *error),                      \
      (notification, error))                                                                                          \
    F(gboolean, notify_notification_close, (NotifyNotification * notification, GError * *error),                     \
      (notification, error))                                                                                          \
    F(GDBusConnection *, g_bus_get_sync, (GBusType bus_type, GCancellable * cancellable, GError * *error),             \
      (bus_type, cancellable, error))                                                                                 \
    V(g_dbus_connection_set_exit_on_close, (GDBusConnection * connection, gboolean exit_on_close),                    \
      (connection, exit_on_close))                                                                                    \
    F(GVariant *, g_dbus_connection_call_sync,                                                                        \
      (GDBusConnection * connection, const gchar *bus_name, const gchar *object_path, const gchar *interface_name,   \
       const gchar *method_name, GVariant *parameters, const GVariantType *reply_type, GDBusCallFlags flags,          \
       gint timeout_msec, GCancellable *cancellable, GError **error),                                                 \
      (connection, bus_name, object_path, interface_name, method_name, parameters, reply_type, flags, timeout_msec,  \
       cancellable, error))                                                                                           \
    F(gchar *, g_dbus_error_get_remote_error, (const GError *error), (error))                                         \
    F(gboolean, g_dbus_error_strip_remote_error, (GError * error), (error))                                           \
    F(GError *, g_dbus_error_new_for_dbus_error, (const gchar *dbus_error_name, const gchar *dbus_error_message),     \
      (dbus_error_name, dbus_error_message))                                                                          \
    F(GQuark, g_dbus_error_quark, (void), ())                                                                         \
    F(GQuark, g_io_error_quark, (void), ())                                                                           \
    V(g_error_free, (GError * error), (error))                                                                        \
    V(g_free, (gpointer memory), (memory))                                                                            \
    V(g_list_free_full, (GList * list, GDestroyNotify free_func), (list, free_func))                                  \
    F(GVariant *, g_variant_new_string, (const gchar *string), (string))                                              \
    V(g_variant_unref, (GVariant * value), (value))                                                                   \
    F(gpointer, g_object_ref, (gpointer object), (object))                                                            \
    V(g_object_unref, (gpointer object), (object))                                                                    \
    F(guint, g_log_set_handler, (const gchar *log_domain, GLogLevelFlags log_levels, GLogFunc log_func,              \
      gpointer user_data), (log_domain, log_levels, log_func, user_data))                                             \
    F(guint, g_dbus_connection_signal_subscribe,                                                                      \
      (GDBusConnection * connection, const gchar *sender, const gchar *interface_name, const gchar *member,          \
       const gchar *object_path, const gchar *arg0, GDBusSignalFlags flags, GDBusSignalCallback callback,            \
       gpointer user_data, GDestroyNotify user_data_free_func),                                                       \
      (connection, sender, interface_name, member, object_path, arg0, flags, callback, user_data,                    \
       user_data_free_func))                                                                                          \
    V(g_dbus_connection_signal_unsubscribe, (GDBusConnection * connection, guint subscription_id),                   \
      (connection, subscription_id))                                                                                  \
    F(guint, g_bus_watch_name_on_connection,                                                                          \
      (GDBusConnection * connection, const gchar *name, GBusNameWatcherFlags flags,                                  \
       GBusNameAppearedCallback name_appeared_handler, GBusNameVanishedCallback name_vanished_handler,               \
       gpointer user_data, GDestroyNotify user_data_free_func),                                                       \
      (connection, name, flags, name_appeared_handler, name_vanished_handler, user_data, user_data_free_func))       \
    F(GVariant *, g_variant_ref, (GVariant * value), (value))                                                         \
    F(GVariant *, g_variant_get_child_value, (GVariant * value, gsize index), (value, index))                         \
    F(gsize, g_variant_n_children, (GVariant * value), (value))                                                       \
    F(gboolean, g_variant_get_boolean, (GVariant * value), (value))                                                   \
    F(guint32, g_variant_get_uint32, (GVariant * value), (value))                                                     \
    F(guint64, g_variant_get_uint64, (GVariant * value), (value))                                                     \
    F(const gchar *, g_variant_get_string, (GVariant * value, gsize * length), (value, length))                      \
    F(GVariant *, g_variant_get_variant, (GVariant * value), (value))                                                 \
    F(const gchar *, g_variant_get_type_string, (GVariant * value), (value))                                          \
    F(GVariant *, g_variant_new_tuple, (GVariant * const *children, gsize n_children), (children, n_children))       \
    F(GVariant *, g_variant_new_uint32, (guint32 value), (value))                                                     \
    F(GVariant *, g_variant_new_uint64, (guint64 value), (value))                                                     \
    F(GSettingsSchemaSource *, g_settings_schema_source_get_default, (void), ())                                      \
    F(GSettingsSchema *, g_settings_schema_source_lookup,                                                             \
      (GSettingsSchemaSource * source, const gchar *schema_id, gboolean recursive), (source, schema_id, recursive))  \
    F(gboolean, g_settings_schema_has_key, (GSettingsSchema * schema, const gchar *name), (schema, name))           \
    V(g_settings_schema_unref, (GSettingsSchema * schema), (schema))                                                  \
    F(GSettings *, g_settings_new, (const gchar *schema_id), (schema_id))                                             \
    F(gboolean, g_settings_get_boolean, (GSettings * settings, const gchar *key), (settings, key))                  \
    F(gulong, g_signal_connect_data,                                                                                  \
      (gpointer instance, const gchar *detailed_signal, GCallback handler, gpointer data, gpointer destroy_data,     \
       int connect_flags),                                                                                            \
      (instance, detailed_signal, handler, data, destroy_data, connect_flags))                                        \
    F(guint, g_timeout_add_seconds, (guint interval, GSourceFunc function, gpointer data), (interval, function, data)) \
    F(gboolean, g_source_remove, (guint tag), (tag))                                                                  \
    F(guint, g_unix_fd_add, (gint fd, GIOCondition condition, GUnixFDSourceFunc function, gpointer user_data),      \
      (fd, condition, function, user_data))                                                                           \
    F(GMainContext *, g_main_context_default, (void), ())                                                             \
    V(g_main_context_wakeup, (GMainContext * context), (context))                                                     \
    F(gboolean, g_main_context_iteration, (GMainContext * context, gboolean may_block), (context, may_block))

// GObject's variadic property accessors, in the table but called from C only (below).
#define CLIBNOTIFY_VARIADIC(F)                                                                                        \
    F(void, g_object_set, (gpointer object, const gchar *first_property_name, ...), ())                              \
    F(void, g_object_get, (gpointer object, const gchar *first_property_name, ...), ())

#define CDL_TABLE clibnotify_functions
/// The resolved functions; filled by `clibnotify_load`. GObject's variadic property accessors are called from C only.
struct clibnotify_table {
    CLIBNOTIFY_FUNCTIONS(CDL_POINTER, CDL_VOID_POINTER)
    CLIBNOTIFY_VARIADIC(CDL_POINTER)
};
extern struct clibnotify_table clibnotify_functions;

/// dlopens libnotify.so.4 (which brings GIO, GObject and GLib) and resolves every function, once per process (later
/// calls return the first result). 0 on success; otherwise -1, and `clibnotify_error` says why in one line.
int clibnotify_load(void);
const char *clibnotify_error(void);

// The wrappers: valid only after `clibnotify_load` returned 0.
CLIBNOTIFY_FUNCTIONS(CDL_WRAPPER, CDL_VOID_WRAPPER)
#undef CDL_TABLE

// What Swift cannot call: GObject's variadic property accessors and libnotify's macros. Prefixed `clibnotify_`.

/// NOTIFY_EXPIRES_DEFAULT: the server picks how long the notification stays.
static const gint clibnotify_expires_default = -1;

/// NOTIFY_EXPIRES_NEVER: the notification stays until the person dismisses it.
static const gint clibnotify_expires_never = 0;

/// `g_object_set (notification, "id", id, NULL)`: the server id that `show` replaces and `close` closes.
static inline void clibnotify_notification_set_id(NotifyNotification *notification, gint id) {
    clibnotify_functions.g_object_set(notification, "id", id, (void *)0);
}

/// `g_object_get (notification, "id", &id, NULL)`: the id the server returned from the last `show`.
static inline gint clibnotify_notification_get_id(NotifyNotification *notification) {
    gint id = 0;
    clibnotify_functions.g_object_get(notification, "id", &id, (void *)0);
    return id;
}

/// `g_list_free_full (list, g_free)`: frees the list `notify_get_server_caps` returns, strings included.
static inline void clibnotify_free_string_list(GList *list) {
    clibnotify_functions.g_list_free_full(list, clibnotify_functions.g_free);
}
