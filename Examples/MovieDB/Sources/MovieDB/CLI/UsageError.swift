/// A command line that cannot be run; the message is one line for stderr.
struct UsageError: Error, Equatable {
    let message: String
}
