package cron

import "time"

// Trimmed from cron.go (github.com/robfig/cron/v3): only the Schedule interface, which the
// parser returns.

// Schedule describes a job's duty cycle.
type Schedule interface {
	// Next returns the next activation time, later than the given time.
	// Next is invoked initially, and then each time the job is run.
	Next(time.Time) time.Time
}
