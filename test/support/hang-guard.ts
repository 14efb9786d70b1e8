/**
 * How long a test waits for an event (a run's end, a log line, a job's state) before it counts as
 * hung. Not a time limit on the event: on a loaded two-core machine everything takes many times
 * longer than alone, so no wait here may be sized to the work. The test's own time limit is the
 * real bound; this guard fires first only in tests whose limit is longer (the slow ones), so a hang
 * there fails naming what was awaited.
 */
export const HANG_GUARD_MS = 240_000;
