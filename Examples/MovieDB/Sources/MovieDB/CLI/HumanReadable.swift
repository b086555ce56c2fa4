import Foundation

/// The text a person reads for each result: tables for lists, labelled lines for details.
enum HumanReadable {
    /// Shown for a missing year, rating or runtime; ASCII, so it is safe in any terminal.
    static let missing = "-"

    /// A table of movies (ID, TITLE, YEAR, RATING) and a footer such as
    /// `page 1 of 3 (55 results)`.
    static func movies(_ page: Page<Movie>) -> String {
        var lines: [String] = []
        if page.results.isEmpty {
            lines.append("No movies.")
        } else {
            var table = TextTable([
                .init(title: "ID", alignment: .right), .init(title: "TITLE", alignment: .left),
                .init(title: "YEAR", alignment: .left), .init(title: "RATING", alignment: .right),
            ])
            for movie in page.results {
                table.append([
                    String(movie.id), movie.title, movie.year.map(String.init) ?? missing,
                    rating(movie.voteAverage, votes: movie.voteCount),
                ])
            }
            lines += table.lines()
        }
        var footer = "page \(page.page) of \(page.totalPages) (\(page.totalResults) \(page.totalResults == 1 ? "result" : "results")"
        if page.skippedResults > 0 {
            // Said out loud: a movie the server sent but we could not read must not just vanish.
            footer += "; \(page.skippedResults) on this page could not be read and \(page.skippedResults == 1 ? "is" : "are") not shown"
        }
        lines.append(footer + ")")
        return text(lines)
    }

    /// A table of videos: SITE, TYPE, NAME, URL.
    static func videos(_ list: VideoList) -> String {
        guard !list.results.isEmpty else { return text(["No videos."]) }
        var table = TextTable([
            .init(title: "SITE", alignment: .left), .init(title: "TYPE", alignment: .left),
            .init(title: "NAME", alignment: .left), .init(title: "URL", alignment: .left),
        ])
        for video in list.results {
            table.append([video.site, video.type, video.name, video.url?.absoluteString ?? missing])
        }
        return text(table.lines())
    }

    /// The title with its year, then labelled lines: tagline, runtime, rating, genres, status,
    /// IMDb and the overview, wrapped.
    static func details(_ movie: MovieDetails) -> String {
        let title = movie.title.printable
        var lines = [movie.year.map { "\(title) (\($0))" } ?? title]
        var fields: [(String, String)] = []
        if let tagline = movie.tagline, !tagline.isEmpty { fields.append(("Tagline", tagline)) }
        fields.append(("Runtime", movie.runtime.map { "\($0) min" } ?? missing))
        fields.append(("Rating", movie.voteAverage > 0 ? oneDecimal(movie.voteAverage) + " / 10" : missing))
        fields.append(("Genres", movie.genres.isEmpty ? missing : movie.genres.map(\.name).joined(separator: ", ")))
        if let status = movie.status, !status.isEmpty { fields.append(("Status", status)) }
        if let imdb = movie.imdbId, !imdb.isEmpty { fields.append(("IMDb", "https://www.imdb.com/title/\(imdb)/")) }
        fields.append(("Overview", movie.overview.isEmpty ? missing : movie.overview))

        let labelWidth = (fields.map(\.0.count).max() ?? 0) + 2
        for (label, value) in fields {
            let prefix = (label + ":").padding(toLength: labelWidth, withPad: " ", startingAt: 0)
            let wrapped = wrap(value.printable, width: max(20, lineWidth - labelWidth))
            lines.append(prefix + wrapped[0])
            lines += wrapped.dropFirst().map { String(repeating: " ", count: labelWidth) + $0 }
        }
        return text(lines)
    }

    /// One decimal, or ``missing`` for a movie nobody has rated (TMDB sends 0.0 then).
    static func rating(_ average: Double, votes: Int) -> String {
        votes > 0 ? oneDecimal(average) : missing
    }

    /// `7.25` as `"7.3"`: rounded half away from zero first, because `%.1f` alone rounds an
    /// exactly representable half to even and would print "7.2".
    static func oneDecimal(_ value: Double) -> String {
        String(format: "%.1f", (value * 10).rounded() / 10)
    }

    /// The width overviews are wrapped to: the classic terminal, which also reads well wider.
    private static let lineWidth = 80

    /// `text` split at spaces into lines of at most `width` characters; a longer word keeps its
    /// own line. Never empty.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(whereSeparator: \.isWhitespace) {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        lines.append(current)
        return lines
    }

    private static func text(_ lines: [String]) -> String {
        lines.joined(separator: "\n") + "\n"
    }
}
