"""What a job does, the same in the command's embedded run and in the fleet's workers: its parameters
(params), the loop over its slots (slot), the daily set (daily), re-grading (regrade), the judgment
of beat's sweep for stalled jobs (sweep), and the names of the queues a job's messages wait in
(queues). Below the workers and above the store: nothing here imports Celery or a broker's client."""
