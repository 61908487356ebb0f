"""What a job does, the same in the command's embedded run and in the fleet's workers: its parameters
(params), the loop over its slots (slot), the daily set (daily) and re-grading (regrade). Below the
workers and above the store: nothing here knows Celery or a broker."""
