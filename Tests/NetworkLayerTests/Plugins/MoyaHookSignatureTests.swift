import Foundation
import Testing

/// A plugin pasted from Moya must not compile: its hooks (`prepare(_:target:)` …) would be new
/// methods, never called. These tests type-check snippets with `swiftc` against the
/// NetworkLayer module this test binary was built with, and read the diagnostics. Two compiler
/// runs in all, one at a time: each takes a core for most of a second, which the suites that
/// measure time in the same run would feel.
@Suite(
    "Moya's plugin hook signatures", .serialized,
    .enabled(if: SwiftCompiler.available, "needs swiftc and the built NetworkLayer module"))
struct MoyaHookSignatureTests {
    @Test func codePastedFromMoyaFailsWithMessagesThatNameTheRightHooks() throws {
        let result = try SwiftCompiler.typecheck(
            """
            import Foundation
            #if canImport(FoundationNetworking)
            import FoundationNetworking
            #endif
            import NetworkLayer

            final class MoyaPlugin: PluginType {
                func prepare(_ request: URLRequest, target: TargetType) -> URLRequest { request }
                func willSend(_ request: RequestType, target: TargetType) {}
                func didReceive(_ result: Result<Response, MoyaError>, target: TargetType) {}
                func process(_ result: Result<Response, MoyaError>, target: TargetType) -> Result<Response, MoyaError> { result }
            }

            enum Api { case me }
            extension Api: AccessTokenAuthorizable {
                var authorizationType: AuthorizationType? { .bearer }
            }
            """)
        #expect(result.status != 0)
        // Each diagnostic once: the line that starts with its location, not the source excerpt.
        let errors = result.lines.filter { $0.hasPrefix("/") && $0.contains("snippet.swift:") && $0.contains(": error:") }
        // One error per use of a Moya type, each on the hook that uses it.
        #expect(errors.filter { $0.contains("'TargetType' is unavailable") && $0.contains("context: RequestContext") }.count == 4, "\(result.output)")
        #expect(errors.contains { $0.contains("'RequestType' is unavailable") && $0.contains("willSend(_ request: URLRequest, context: RequestContext)") })
        #expect(errors.contains { $0.contains("'MoyaError' is unavailable") && $0.contains("didReceive(_:context:)") })
        #expect(errors.contains { $0.contains("'AccessTokenAuthorizable' is unavailable") && $0.contains("requirement of EndPointType") })
    }

    @Test func networkLayersHooksCompileCleanlyAndMoyasRenamedOnesAreBeyondTheCompiler() throws {
        // The control: the same compiler and module accept the right signatures without a
        // word, so the errors above come from the Moya names and nothing else.
        //
        // And the limit, measured: written with NetworkLayer's types, Moya's hook is a method
        // of its own, and Swift 6.3 says nothing (its "nearly matches defaulted requirement"
        // warning needs a conformance declared in an extension and a name within about one
        // edit in four characters). MigratingFromMoya.md puts this first for that reason.
        // Should a later compiler warn, this test fails: then say so in the article.
        let result = try SwiftCompiler.typecheck(
            """
            import Foundation
            #if canImport(FoundationNetworking)
            import FoundationNetworking
            #endif
            import NetworkLayer

            final class Plugin: PluginType {
                func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest { request }
                func willSend(_ request: URLRequest, context: RequestContext) {}
                func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {}
                func process(_ result: Result<Response, NetworkError>, context: RequestContext) -> Result<Response, NetworkError> { result }
            }

            struct Renamed: PluginType {
                func prepare(_ request: URLRequest, target: any EndPointType) -> URLRequest { request }
            }
            struct InAnExtension {}
            extension InAnExtension: PluginType {
                func prepare(_ request: URLRequest, target: any EndPointType) -> URLRequest { request }
            }
            """)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("warning:"), "\(result.output)")
    }
}

/// `swiftc -typecheck` against the modules next to this test binary.
enum SwiftCompiler {
    struct Result {
        let status: Int32
        let output: String
        var lines: [String] { output.components(separatedBy: "\n") }
    }

    /// The folder holding NetworkLayer.swiftmodule: `Modules` beside the running test binary
    /// (`.build/<triple>/debug/NetworkLayerPackageTests.xctest`), whatever the scratch path.
    static let modules: URL? = {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Modules")
        let module = folder.appendingPathComponent("NetworkLayer.swiftmodule")
        return FileManager.default.fileExists(atPath: module.path) ? folder : nil
    }()

    static let swiftc: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static var available: Bool { modules != nil && swiftc != nil }

    static func typecheck(_ source: String) throws -> Result {
        let swiftc = try #require(swiftc)
        let modules = try #require(modules)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("networklayer-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("snippet.swift")
        try Data(source.utf8).write(to: file)

        let process = Process()
        process.executableURL = swiftc
        process.arguments = ["-typecheck", "-swift-version", "6", "-I", modules.path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Read before waiting: a full pipe would block the compiler.
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }
}
