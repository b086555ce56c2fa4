import Foundation

/// The SHA-256 of a file as hex, by coreutils' `sha256sum` (Foundation has no SHA-256 on Linux).
public func sha256(ofFile url: URL) throws -> String {
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

/// The SHA-256 of `data` as hex, through a temporary file.
public func sha256(of data: Data) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("digest-\(UUID().uuidString)")
    try data.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try sha256(ofFile: file)
}

/// A fresh folder for one test's files; the test removes it.
public func scratchFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nl-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
