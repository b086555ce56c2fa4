/// Columns of text aligned with spaces, for terminal output.
///
/// Widths are counted in `Character`s (grapheme clusters), so "Amélie" is six wide whatever its
/// Unicode form. Known limitation: East Asian wide characters and most emoji take two terminal
/// columns but count as one, so a row with "東京" or "🎬" ends up shifted left by one column per
/// such character. Measuring display width needs Unicode's East Asian Width tables, which
/// neither the standard library nor Foundation exposes.
struct TextTable {
    /// How a column's cells line up.
    enum Alignment {
        case left, right
    }

    /// A column heading and its alignment.
    struct Column {
        let title: String
        let alignment: Alignment
    }

    let columns: [Column]
    private(set) var rows: [[String]] = []

    init(_ columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; missing cells are blank and extra cells are ignored. Control characters
    /// become spaces (see `String.printable`).
    mutating func append(_ cells: [String]) {
        rows.append((0..<columns.count).map { $0 < cells.count ? cells[$0].printable : "" })
    }

    /// The heading line and one line per row, without trailing spaces.
    func lines() -> [String] {
        let all = [columns.map(\.title)] + rows
        let widths = columns.indices.map { index in all.map { $0[index].count }.max() ?? 0 }
        return all.map { cells in
            let padded = cells.indices.map { index -> String in
                let padding = String(repeating: " ", count: widths[index] - cells[index].count)
                return columns[index].alignment == .left ? cells[index] + padding : padding + cells[index]
            }
            var line = padded.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
