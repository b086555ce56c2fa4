/// What a command line asks for, once parsed.
struct Invocation: Equatable {
    /// The subcommand and its arguments.
    enum Action: Equatable {
        case help
        case popular(page: Int)
        case nowPlaying(page: Int)
        case recommended(id: Int, page: Int)
        case videos(id: Int)
        case movie(id: Int)
        case search(query: String, page: Int)
    }

    var action: Action
    /// `--json`: machine-readable output.
    var json: Bool
}
