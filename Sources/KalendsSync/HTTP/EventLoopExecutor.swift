import NIOCore

/// Runs tasks on one NIO event loop: a task that prefers it (`Task(executorPreference:)`) and talks
/// over channels of that loop never changes threads between its own code and the channel's — no
/// wake-up of the loop for each write, no hop back to the cooperative pool for each answer.
///
/// Only for work that does not block: the loop serves its channels between the task's steps.
final class EventLoopExecutor: TaskExecutor {
  /// The loop the tasks run on.
  let loop: any EventLoop

  init(_ loop: any EventLoop) { self.loop = loop }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    loop.execute { job.runSynchronously(on: executor) }
  }
}
