// The scheduler thread and its wall-clock waiting primitive.
