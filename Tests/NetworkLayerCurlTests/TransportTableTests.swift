import Foundation
import Testing

/// The differences between the transports are listed in one table, which the README ("Choosing a
/// transport on Linux") and the DocC article *Choosing a transport* ("What differs") both show:
/// these tests keep the two copies the same, word for word, with the paragraph on what both do.
@Suite("Transport table in README and DocC")
struct TransportTableTests {
    /// The package root, three levels above this file (Tests/NetworkLayerCurlTests/).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The lines of `file` under the heading `heading`, up to the next heading of any level.
    static func section(_ heading: String, of file: String) throws -> [String] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        // Found before #require, so that a failure does not print the whole file.
        let found = lines.firstIndex(of: heading)
        let start = try #require(found, "\(file) has no \"\(heading)\"")
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("#") } ?? lines.endIndex
        return Array(lines[(start + 1)..<end])
    }

    /// The table's lines, and the paragraph right after it.
    static func tableAndBoth(_ lines: [String]) -> (table: [String], both: [String]) {
        let table = lines.drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        let both = lines.drop { !$0.hasPrefix("Both ") }.prefix { !$0.isEmpty }
        return (Array(table), Array(both))
    }

    static func readme() throws -> (table: [String], both: [String]) {
        tableAndBoth(try section("### Choosing a transport on Linux", of: "README.md"))
    }

    static func article() throws -> (table: [String], both: [String]) {
        tableAndBoth(try section("### What differs", of: "Sources/NetworkLayerCurl/NetworkLayerCurl.docc/ChoosingATransport.md"))
    }

    @Test func theREADMEHasATableOfDifferences() throws {
        let table = try Self.readme().table
        #expect(table.first == "| | `URLSessionTransport` on Linux | `CurlTransport` |")
        #expect(table.count > 2, "the table has no rows")
        #expect(table.allSatisfy { $0.filter { $0 == "|" }.count == 4 }, "a row does not have three cells")
    }

    @Test func theArticleShowsTheSameTable() throws {
        let (readme, article) = (try Self.readme().table, try Self.article().table)
        let onlyInREADME = readme.filter { !article.contains($0) }
        let onlyInArticle = article.filter { !readme.contains($0) }
        #expect(article == readme, "rows only in the README: \(onlyInREADME); only in the article: \(onlyInArticle)")
    }

    @Test func theArticleSaysTheSameAboutWhatBothDo() throws {
        let (readme, article) = (try Self.readme().both, try Self.article().both)
        #expect(!readme.isEmpty, "the README has no \"Both …\" paragraph after the table")
        #expect(article == readme)
    }
}
