import Foundation
import Testing

/// The differences between the transports are listed in one table, in the DocC article
/// *Choosing a transport* ("What differs"), which the README links to: every suite that
/// exercises the wire runs over both transports, and a test that expects a difference points
/// to its row. These tests keep the table well formed and the README pointing at it.
@Suite("Transport table")
struct TransportTableTests {
    /// The package root, three levels above this file (Tests/NetworkLayerCurlTests/).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let articlePath = "Sources/NetworkLayerCurl/NetworkLayerCurl.docc/ChoosingATransport.md"

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
    static func article() throws -> (table: [String], both: [String]) {
        let lines = try section("### What differs", of: articlePath)
        let table = lines.drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        let both = lines.drop { !$0.hasPrefix("Both ") }.prefix { !$0.isEmpty }
        return (Array(table), Array(both))
    }

    @Test func theArticleHasATableOfDifferences() throws {
        let table = try Self.article().table
        #expect(table.first == "| | `URLSessionTransport` on Linux | `CurlTransport` |")
        #expect(table.count > 2, "the table has no rows")
        #expect(table.allSatisfy { $0.filter { $0 == "|" }.count == 4 }, "a row does not have three cells")
    }

    @Test func theArticleSaysWhatBothDo() throws {
        #expect(!(try Self.article().both.isEmpty), "the article has no \"Both …\" paragraph after the table")
    }

    @Test func theREADMELinksToTheArticle() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(Self.articlePath))
    }
}
