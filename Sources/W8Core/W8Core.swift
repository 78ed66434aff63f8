// W8Core is the pure domain of W8Trackr: weights and units, entries, goals, progress, milestones,
// settings and notification content. It does no I/O: time, calendar and time zone are always passed in.
