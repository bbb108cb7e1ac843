//! The engine's own thread, which runs its jobs (a search, a book answer, a perft count)
//! one at a time. It lives as long as the engine, so that a `go` costs two messages, not
//! a new thread whose 64 MB stack is mapped, faulted in page by page and unmapped again:
//! data generation runs hundreds of small searches a second, and that was about a
//! twentieth of its time.

use crate::search::{Worker, STACK_SIZE};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

/// A job owns the engine's workers while it runs and gives them back at its end.
pub(crate) type Job = Box<dyn FnOnce() -> Vec<Worker> + Send>;

/// What a job gave back: its workers, or `None` if it panicked (and lost them).
type Outcome = Option<Vec<Worker>>;

/// The thread and its two queues; started at the first job.
#[derive(Default)]
pub(crate) struct JobThread {
    live: Option<Live>,
}

struct Live {
    jobs: Sender<Job>,
    done: Receiver<Outcome>,
    handle: JoinHandle<()>,
}

impl JobThread {
    /// Hands `job` to the thread (starting it if need be) and returns at once. On an
    /// error the job, and the workers it owned, are gone.
    pub(crate) fn start(&mut self, job: Job) -> std::io::Result<()> {
        let job = match &self.live {
            Some(live) => match live.jobs.send(job) {
                Ok(()) => return Ok(()),
                // The thread has ended (it never should): start another.
                Err(mpsc::SendError(job)) => job,
            },
            None => job,
        };
        let live = Live::spawn()?;
        live.jobs
            .send(job)
            .map_err(|_| std::io::Error::other("the engine's thread ended at once"))?;
        self.live = Some(live);
        Ok(())
    }

    /// Waits for the job started last to end and returns its workers (`None` if it
    /// panicked or the thread is gone).
    pub(crate) fn finish(&mut self) -> Outcome {
        let live = self.live.as_ref()?;
        match live.done.recv() {
            Ok(outcome) => outcome,
            Err(_) => {
                self.live = None;
                None
            }
        }
    }
}

impl Live {
    fn spawn() -> std::io::Result<Live> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let (report, done) = mpsc::channel::<Outcome>();
        let handle = std::thread::Builder::new()
            .name("sable-engine".into())
            // The search keeps its move lists on the stack.
            .stack_size(STACK_SIZE)
            .spawn(move || {
                for job in queue {
                    // A panic loses this job's workers, not the thread: the engine
                    // starts fresh workers and goes on.
                    let outcome = catch_unwind(AssertUnwindSafe(job)).ok();
                    if report.send(outcome).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Live { jobs, done, handle })
    }
}

impl Drop for JobThread {
    fn drop(&mut self) {
        if let Some(Live { jobs, done, handle }) = self.live.take() {
            // Closing the queue ends the thread's loop once its job (if any) is over.
            drop(jobs);
            drop(done);
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};
    use std::thread::ThreadId;

    /// A job that notes the thread it ran on and gives back `n` workers.
    fn noting(seen: &Arc<Mutex<Vec<ThreadId>>>, n: usize) -> Job {
        let seen = seen.clone();
        Box::new(move || {
            seen.lock().unwrap().push(std::thread::current().id());
            (0..n).map(Worker::new).collect()
        })
    }

    #[test]
    fn jobs_run_one_after_another_on_one_thread_of_their_own() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut thread = JobThread::default();
        for n in 1..=3 {
            thread.start(noting(&seen, n)).unwrap();
            assert_eq!(thread.finish().map(|w| w.len()), Some(n));
        }
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 3);
        assert!(seen.iter().all(|&id| id == seen[0]));
        assert_ne!(seen[0], std::thread::current().id());
    }

    #[test]
    fn a_panicking_job_loses_its_workers_and_the_next_job_still_runs() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut thread = JobThread::default();
        thread
            .start(Box::new(|| panic!("a job that fails")))
            .unwrap();
        assert!(thread.finish().is_none());
        thread.start(noting(&seen, 2)).unwrap();
        assert_eq!(thread.finish().map(|w| w.len()), Some(2));
        assert_eq!(seen.lock().unwrap().len(), 1);
    }

    #[test]
    fn dropping_the_thread_waits_for_its_job() {
        let done = Arc::new(Mutex::new(false));
        let mut thread = JobThread::default();
        let flag = done.clone();
        thread
            .start(Box::new(move || {
                std::thread::sleep(std::time::Duration::from_millis(50));
                *flag.lock().unwrap() = true;
                Vec::new()
            }))
            .unwrap();
        drop(thread);
        assert!(*done.lock().unwrap());
    }
}
