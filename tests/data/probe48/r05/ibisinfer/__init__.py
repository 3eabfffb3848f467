"""ibisinfer: vision-language serving with a CPU swap space for preempted requests."""
