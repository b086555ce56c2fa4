import Foundation

/// Parses `movie-db`'s arguments (without the program name) into an ``Invocation``.
///
/// Hand-written rather than swift-argument-parser because the package has no dependencies by
/// design. Options may appear anywhere (`movie-db search --json the thing`); `--` ends them, so
/// `movie-db search -- -1` searches for "-1".
enum ArgumentParser {
    /// The subcommands and what each takes.
    private enum Command: String {
        case popular
        case nowPlaying = "now-playing"
        case recommended, videos, movie, search, help

        var isPaged: Bool { [.popular, .nowPlaying, .recommended, .search].contains(self) }
    }

    /// TMDB serves pages 1 to 500 and answers 400 to any other.
    static let pages = 1...500

    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var positionals: [String] = []
        var json = false
        var page: Int?
        var optionsEnded = false

        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            // A negative number is an operand, so `movie -5` says "invalid movie id", not "unknown option".
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") || Int(argument) != nil {
                positionals.append(argument)
                continue
            }
            switch argument {
            case "--":
                optionsEnded = true
            case "-h", "--help":
                return Invocation(action: .help, json: json)
            case "--json":
                json = true
            case "--page":
                guard let value = remaining.popFirst() else { throw UsageError(message: "--page needs a number") }
                page = try parsePage(value)
            case _ where argument.hasPrefix("--page="):
                page = try parsePage(String(argument.dropFirst("--page=".count)))
            default:
                throw UsageError(message: "unknown option '\(argument)'")
            }
        }

        guard let name = positionals.first else { throw UsageError(message: "missing command") }
        guard let command = Command(rawValue: name) else { throw UsageError(message: "unknown command '\(name)'") }
        let operands = Array(positionals.dropFirst())
        if page != nil, !command.isPaged {
            throw UsageError(message: "'\(name)' does not take --page")
        }
        let pageNumber = page ?? 1

        switch command {
        case .help:
            return Invocation(action: .help, json: json)
        case .popular:
            try expectNoOperands(operands, of: name)
            return Invocation(action: .popular(page: pageNumber), json: json)
        case .nowPlaying:
            try expectNoOperands(operands, of: name)
            return Invocation(action: .nowPlaying(page: pageNumber), json: json)
        case .recommended:
            return Invocation(action: .recommended(id: try movieID(operands, of: name), page: pageNumber), json: json)
        case .videos:
            return Invocation(action: .videos(id: try movieID(operands, of: name)), json: json)
        case .movie:
            return Invocation(action: .movie(id: try movieID(operands, of: name)), json: json)
        case .search:
            // Unquoted words form one query, as people type them: `movie-db search the dark knight`.
            let query = operands.joined(separator: " ")
            guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError(message: "'search' needs a query")
            }
            return Invocation(action: .search(query: query, page: pageNumber), json: json)
        }
    }

    private static func parsePage(_ text: String) throws(UsageError) -> Int {
        guard let page = Int(text), pages.contains(page) else {
            throw UsageError(message: "invalid page '\(text)': expected a whole number from 1 to 500")
        }
        return page
    }

    private static func movieID(_ operands: [String], of command: String) throws(UsageError) -> Int {
        guard let text = operands.first else { throw UsageError(message: "'\(command)' needs a movie id") }
        guard operands.count == 1 else { throw UsageError(message: "unexpected argument '\(operands[1])'") }
        guard let id = Int(text), id > 0 else {
            throw UsageError(message: "invalid movie id '\(text)': expected a positive whole number")
        }
        return id
    }

    private static func expectNoOperands(_ operands: [String], of command: String) throws(UsageError) {
        if let extra = operands.first {
            throw UsageError(message: "unexpected argument '\(extra)' after '\(command)'")
        }
    }
}
