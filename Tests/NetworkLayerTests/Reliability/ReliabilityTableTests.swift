import Foundation
import Testing
import TransportTestSupport

extension Reliability {
    /// The DocC article *Reliability* says what a user gets for each fault; `Fault` is what the
    /// fault tests assert. These tests keep the two the same text, so the article cannot drift
    /// from the code: change an outcome in `Fault` and the article must change with it, and the
    /// other way round.
    @Suite("Reliability table", .timeLimit(.minutes(1)))
    struct ReliabilityTableTests {
        /// The package root, four levels above this file (Tests/NetworkLayerTests/Reliability/).
        static let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()

        static let articlePath = "Sources/NetworkLayer/NetworkLayer.docc/Reliability.md"

        /// The lines of the article's "## What each fault gives" section, up to the next "## " heading.
        static func reliabilitySection() throws -> [String] {
            let article = try String(contentsOf: packageRoot.appendingPathComponent(articlePath), encoding: .utf8)
            let lines = article.components(separatedBy: "\n")
            // Found before #require, so that a failure does not print the whole article.
            let found = lines.firstIndex(of: "## What each fault gives")
            let start = try #require(found, "\(articlePath) has no \"## What each fault gives\" section")
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
            return Array(lines[start..<end])
        }

        /// The table's rows, without its header and separator lines.
        static func tableRows() throws -> [String] {
            let table = try reliabilitySection().filter { $0.hasPrefix("|") }
            try #require(table.count >= 2, "the article's section has no table")
            #expect(table[0] == "| fault (fixture route) | what the user gets |")
            #expect(table[1].allSatisfy { "|-: ".contains($0) }, "the second line is not a separator: \(table[1])")
            return Array(table.dropFirst(2))
        }

        @Test func theArticleSaysItIsCheckedAndTheREADMELinksToIt() throws {
            let article = try String(contentsOf: Self.packageRoot.appendingPathComponent(Self.articlePath), encoding: .utf8)
            #expect(article.contains("ReliabilityTableTests"))
            let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
            #expect(readme.contains(Self.articlePath), "the README does not link to the article")
        }

        @Test(arguments: Fault.allCases)
        func everyFaultHasItsRowVerbatim(_ fault: Fault) throws {
            let rows = try Self.tableRows()
            #expect(rows.contains(fault.tableRow), "\(Self.articlePath) lacks the row\n\(fault.tableRow)")
        }

        @Test func everyRowIsAFaultTheTestsAssert() throws {
            let known = Set(Fault.allCases.map(\.tableRow))
            for row in try Self.tableRows() {
                #expect(known.contains(row), "\(Self.articlePath) has a row that no test asserts:\n\(row)")
            }
            #expect(try Self.tableRows().count == Fault.allCases.count, "one row per fault, no duplicates")
        }

        @Test(arguments: Fault.allCases)
        func everyOutcomeNamesTheCaseItsTestsAssert(_ fault: Fault) {
            // `expected(over:)` is what the Router tests verify over each transport;
            // `managerOutcome` what the NetworkManager tests compare with the APIError they get.
            for transport in TestTransport.allCases {
                let expected = fault.expected(over: transport)
                #expect(fault.outcome.contains(expected.name), "\(fault.outcome) does not name \(expected.name) (\(transport))")
            }
            if let managerOutcome = fault.managerOutcome {
                #expect(fault.outcome.contains(managerOutcome), "\(fault.outcome) does not name \(managerOutcome)")
            }
            // A table cell cannot hold a pipe or a line break.
            #expect(fault.tableRow.filter { $0 == "|" }.count == 3, "a cell holds a pipe: \(fault.tableRow)")
            #expect(!fault.tableRow.contains("\n"))
        }

        @Test(arguments: Fault.allCases)
        func everyFaultHasATestOfItsOwn(_ fault: Fault) throws {
            // The parameterized completion test runs every fault; this asks for a dedicated test
            // too, with the fault's timing and details, by finding "Fault.<case>" in a @Test of
            // FaultInjectionTests.swift.
            let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("FaultInjectionTests.swift")
            let source = try String(contentsOf: file, encoding: .utf8)
            let tests = source.components(separatedBy: "@Test").dropFirst()
            #expect(tests.contains { $0.contains("Fault.\(fault)") }, "no @Test in FaultInjectionTests.swift uses Fault.\(fault)")
        }
    }
}
