"""What a job does, the same in the command's embedded run and in the fleet's workers: its parameters
(params), the loop over its slots (slot), the daily set (daily), re-grading (regrade), and the judgment
of beat's sweep for stalled jobs (sweep). Below the workers and above the store: nothing here knows
Celery or a broker."""
