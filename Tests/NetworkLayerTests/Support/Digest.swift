import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SHA-256 of a file, by coreutils' `sha256sum` (Foundation has no SHA-256 on Linux).
func sha256(ofFile url: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [url.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
}

/// The SHA-256 of `data`, through a temporary file.
func sha256(of data: Data) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("digest-\(UUID().uuidString)")
    try data.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try sha256(ofFile: file)
}

/// What the fixture server says the SHA-256 of its `/bytes/n?seed=s` stream is.
func fixtureDigest(bytes: Int, seed: String) async throws -> String {
    guard let base = TestServers.fixture,
        let url = URL(string: "\(base.absoluteString)/bytes/\(bytes)/sha256?seed=\(seed)")
    else { throw URLError(.badURL) }
    let (data, _) = try await URLSession.shared.data(from: url)
    return try jsonObject(data)["sha256"] as? String ?? ""
}

/// A fresh folder for one test's files.
func scratchFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nl-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// The package's temporary files now in the temporary directory.
func leftoverTemporaryFiles() -> Set<String> {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
    // Only the library's own prefixes: other processes share the temporary directory.
    return Set(names.filter { $0.hasPrefix("networklayer-download-") || $0.hasPrefix("networklayer-multipart-") })
}
