import Foundation
import NetworkLayer
import Testing

/// A multipart form just past ``MultipartFormData/streamingThreshold``, so that the router
/// writes it to a file: one sparse file part, made in `folder`.
func largeForm(in folder: URL) throws -> MultipartFormData {
    let part = folder.appendingPathComponent("part.bin")
    #expect(FileManager.default.createFile(atPath: part.path, contents: nil))
    let writer = try FileHandle(forWritingTo: part)
    try writer.truncate(atOffset: MultipartFormData.streamingThreshold + 1)
    try writer.close()
    var form = MultipartFormData()
    try form.append(fileAt: part, name: "file")
    return form
}
