//! Isolation for in-process parsers: every batch runs on a worker thread
//! under `catch_unwind` and a deadline. A panic becomes
//! [`Reply::Crashed`] for that request; a request that misses its
//! deadline becomes [`Reply::TimedOut`], and the worker is abandoned
//! (Rust cannot kill a thread: it runs on until the parser returns) and
//! replaced by a fresh one, so the run goes on.
//!
//! Each worker reports its thread's CPU time with every answer
//! ([`Adapter::cost`]); the time an abandoned worker spends after its last
//! answer is not counted.
//!
//! It never retries a request, and never turns a panic or a timeout into
//! a verdict: those are what the suite reports.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;
use std::time::Duration;

use crate::{Adapter, Info, Reply, Request};

/// A batch, and where its replies go with the worker's CPU time so far.
type Job = (Vec<Request>, Sender<(Vec<Reply>, Duration)>);

/// A parser that answers one request, possibly panicking or hanging.
pub trait Parser: Send + 'static {
    /// Who the parser is.
    fn info(&self) -> Info;
    /// One answer; may panic or hang.
    fn answer(&mut self, request: &Request) -> Reply;
}

/// Runs a [`Parser`] on a worker thread with a deadline per request.
pub struct Isolated<P: Parser + Clone> {
    template: P,
    info: Info,
    deadline: Duration,
    worker: Option<Sender<Job>>,
    abandoned: usize,
    /// CPU time of the current worker (as of its last answer).
    worker_cpu: Duration,
    /// CPU time of the workers before it.
    spent: Duration,
}

fn panic_message(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| e.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic with a non-string payload".into())
}

/// The name of worker threads; their panics are reported as replies, so
/// the panic hook keeps quiet about them.
const WORKER: &str = "robots-adapter-worker";

/// Installs (once) a panic hook that is silent for worker threads and
/// defers to the previous hook for every other thread.
fn quiet_worker_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if thread::current().name() != Some(WORKER) {
                previous(info);
            }
        }));
    });
}

fn spawn<P: Parser>(mut parser: P) -> Sender<Job> {
    quiet_worker_panics();
    let (tx, rx): (Sender<Job>, Receiver<Job>) = channel();
    let builder = thread::Builder::new().name(WORKER.into());
    let spawned = builder.spawn(move || {
        for (requests, reply_to) in rx {
            let replies = requests
                .iter()
                .map(|request| {
                    catch_unwind(AssertUnwindSafe(|| parser.answer(request)))
                        .unwrap_or_else(|e| Reply::Crashed {
                            message: format!(
                                "panicked: {}",
                                panic_message(&*e)
                            ),
                        })
                })
                .collect();
            if reply_to.send((replies, crate::cost::thread_cpu())).is_err() {
                return;
            }
        }
    });
    // A failed spawn drops the receiver: the first send fails and the
    // request is answered Crashed.
    drop(spawned);
    tx
}

impl<P: Parser + Clone> Isolated<P> {
    /// Wraps `parser`, giving each request `deadline`.
    pub fn new(parser: P, deadline: Duration) -> Isolated<P> {
        let info = parser.info();
        Isolated {
            template: parser,
            info,
            deadline,
            worker: None,
            abandoned: 0,
            worker_cpu: Duration::ZERO,
            spent: Duration::ZERO,
        }
    }

    /// How many workers were abandoned to hung requests.
    pub fn abandoned(&self) -> usize {
        self.abandoned
    }
}

impl<P: Parser + Clone> Adapter for Isolated<P> {
    fn info(&self) -> Info {
        self.info.clone()
    }

    fn cost(&self) -> crate::cost::Cost {
        crate::cost::Cost {
            starts: 0,
            cpu: self.spent + self.worker_cpu,
            late: 0,
        }
    }

    fn answer(&mut self, request: &Request) -> Reply {
        let one = std::slice::from_ref(request);
        // A live fetch waits on the network too: give it its client's
        // timeout a few times over, as the process adapter does.
        let extra = match request {
            Request::Fetch { live: Some(live), .. } => {
                live.timeout * 3 + Duration::from_secs(1)
            }
            _ => Duration::ZERO,
        };
        self.ask(one, self.deadline + extra)
            .and_then(|mut r| r.pop())
            .unwrap_or(Reply::TimedOut)
    }

    /// The whole batch goes to the worker as one job, with the sum of the
    /// per-request deadlines; if it misses that, each request is asked
    /// alone so that only the one that hangs is reported.
    fn answer_batch(&mut self, requests: &[Request]) -> Vec<Reply> {
        let live = requests
            .iter()
            .any(|r| matches!(r, Request::Fetch { live: Some(_), .. }));
        if requests.len() <= 1 || live {
            return requests.iter().map(|r| self.answer(r)).collect();
        }
        let total = self.deadline.saturating_mul(requests.len() as u32);
        match self.ask(requests, total.min(self.deadline * 4)) {
            Some(replies) => replies,
            None => requests.iter().map(|r| self.answer(r)).collect(),
        }
    }
}

impl<P: Parser + Clone> Isolated<P> {
    /// Sends `requests` to the worker and waits up to `deadline`; `None`
    /// when it missed it (the worker is then abandoned).
    fn ask(
        &mut self,
        requests: &[Request],
        deadline: Duration,
    ) -> Option<Vec<Reply>> {
        let worker =
            self.worker.get_or_insert_with(|| spawn(self.template.clone()));
        let (tx, rx) = channel();
        if worker.send((requests.to_vec(), tx)).is_err() {
            self.worker = None;
            self.spent += std::mem::take(&mut self.worker_cpu);
            let message = "the worker thread is gone".to_string();
            return Some(vec![Reply::Crashed { message }; requests.len()]);
        }
        match rx.recv_timeout(deadline) {
            Ok((replies, cpu)) => {
                self.worker_cpu = cpu;
                Some(replies)
            }
            Err(_) => {
                // Abandon the stuck worker; the next request gets a new one.
                self.worker = None;
                self.spent += std::mem::take(&mut self.worker_cpu);
                self.abandoned += 1;
                None
            }
        }
    }
}
