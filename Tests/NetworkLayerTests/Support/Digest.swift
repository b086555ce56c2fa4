import Foundation
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// sha256(of:), sha256(ofFile:) and scratchFolder() come from TestSupport.

/// What the fixture server says the SHA-256 of its `/bytes/n?seed=s` stream is.
func fixtureDigest(bytes: Int, seed: String) async throws -> String {
    guard let base = TestServers.fixture,
        let url = URL(string: "\(base.absoluteString)/bytes/\(bytes)/sha256?seed=\(seed)")
    else { throw URLError(.badURL) }
    let (data, _) = try await URLSession.shared.data(from: url)
    return try jsonObject(data)["sha256"] as? String ?? ""
}

/// The package's temporary files now in this process's working folder (``WorkingFolder``).
func leftoverTemporaryFiles() -> Set<String> {
    guard let folder = WorkingFolder.existing else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    // Only the library's own prefixes: other processes share the temporary directory.
    return Set(names.filter { $0.hasPrefix("networklayer-download-") || $0.hasPrefix("networklayer-multipart-") })
}
