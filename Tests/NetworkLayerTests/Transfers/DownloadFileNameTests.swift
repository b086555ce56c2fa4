import Foundation
import Testing
@testable import NetworkLayer

/// The file name a response gives a download to a folder: Content-Disposition (RFC 6266, with
/// RFC 8187's filename* winning) or the URL, and never a name that leaves the folder.
@Suite("Download file names")
struct DownloadFileNameTests {
    private func name(_ header: String?, url: String = "https://example.invalid/files/fallback.bin") -> String? {
        DownloadFileName.name(contentDisposition: header, url: URL(string: url))
    }

    // MARK: Content-Disposition

    @Test(arguments: [
        (#"attachment; filename="report.pdf""#, "report.pdf"),
        (#"attachment; filename=report.pdf"#, "report.pdf"),
        (#"inline; FILENAME="a b.txt""#, "a b.txt"),
        (#"attachment;filename="quo\"ted.txt""#, #"quo"ted.txt"#),
        (#"attachment; filename=unquoted with spaces.txt ; size=3"#, "unquoted with spaces.txt"),
        (#"attachment; size=3; filename="second.txt"; filename="third.txt""#, "second.txt"),
        (#"attachment; filename="semi;colon.txt"; x=1"#, "semi;colon.txt"),
    ])
    func theFilenameParameter(_ header: String, _ expected: String) {
        #expect(name(header) == expected, "\(header)")
    }

    @Test func filenameStarWinsAndIsDecodedAsUTF8() {
        #expect(name(#"attachment; filename="fallback.txt"; filename*=UTF-8''na%C3%AFve%20r%C3%A9sum%C3%A9.txt"#) == "naïve résumé.txt")
        #expect(name(#"attachment; filename*=utf-8'en'%E2%82%AC%20rates.csv; filename="EUR rates.csv""#) == "€ rates.csv")
    }

    @Test func filenameStarInISO88591() {
        #expect(name(#"attachment; filename*=iso-8859-1'de'Gr%FC%DFe.txt"#) == "Grüße.txt")
    }

    @Test(arguments: [
        #"attachment; filename*=UTF-8''%FF%FE.txt; filename="plain.txt""#,  // not UTF-8
        #"attachment; filename*=Shift_JIS''x.txt; filename="plain.txt""#,  // a charset we do not decode
        #"attachment; filename*=UTF-8''bad%2.txt; filename="plain.txt""#,  // a broken escape
        #"attachment; filename*=no-quotes.txt; filename="plain.txt""#,  // not charset'lang'value
    ])
    func aBrokenFilenameStarFallsBackToFilename(_ header: String) {
        #expect(name(header) == "plain.txt", "\(header)")
    }

    @Test func anUnterminatedQuoteEndsTheHeader() {
        #expect(name(#"attachment; filename="open.txt"#) == "open.txt")
    }

    @Test func noFilenameFallsBackToTheURL() {
        #expect(name("attachment") == "fallback.bin")
        #expect(name(nil, url: "https://example.invalid/dl/caf%C3%A9%20menu.pdf?token=secret") == "café menu.pdf")
    }

    // MARK: Sanitizing: nothing leaves the folder

    @Test(arguments: [
        ("../../etc/passwd", "passwd"),
        ("/etc/passwd", "passwd"),
        (#"..\..\windows\system.ini"#, "system.ini"),
        ("a/b/c.txt", "c.txt"),
        (".bashrc", "bashrc"),
        ("...hidden", "hidden"),
        (" . .spaced", "spaced"),
        ("name.txt\u{0}.exe", "name.txt.exe"),
        ("line\r\nbreak.txt", "linebreak.txt"),
        ("invoice\u{202E}fdp.exe", "invoicefdp.exe"),
        ("tab\there.txt", "tabhere.txt"),
        ("trailing.txt  ", "trailing.txt"),
    ])
    func dangerousNamesAreMadeSafe(_ raw: String, _ expected: String) {
        #expect(DownloadFileName.sanitize(raw) == expected, "\(raw.debugDescription)")
    }

    @Test(arguments: ["..", ".", "/", "../", "a/..", "\u{0}", "  ", "\\", "..\\.."])
    func namesWithNothingLeftDoNotCount(_ raw: String) {
        #expect(DownloadFileName.sanitize(raw) == nil, "\(raw.debugDescription)")
    }

    @Test func aHeaderWithNoUsableNameFallsBackToTheURL() {
        #expect(name(#"attachment; filename="..""#) == "fallback.bin")
        #expect(name(#"attachment; filename*=UTF-8''%2E%2E%2F; filename="/""#) == "fallback.bin")
    }

    @Test func aPercentEncodedSeparatorInFilenameStarIsStillASeparator() {
        #expect(name(#"attachment; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd"#) == "passwd")
    }

    @Test func nothingUsableAnywhereIsNoName() {
        #expect(name(#"attachment; filename="..""#, url: "https://example.invalid/") == nil)
        #expect(name(nil, url: "https://example.invalid") == nil)
    }

    @Test func aLongNameIsShortenedTo255BytesKeepingItsExtension() throws {
        let long = String(repeating: "é", count: 300) + ".tar.gz"
        let short = try #require(DownloadFileName.sanitize(long))
        #expect(short.utf8.count <= 255)
        #expect(short.hasSuffix(".gz"))
        #expect(short.hasPrefix("éé"))
        let folder = FileManager.default.temporaryDirectory
        #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(short).path, contents: nil))
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(short))
    }

    @Test func theDestinationIsInsideTheFolder() throws {
        let folder = URL(fileURLWithPath: "/tmp/downloads", isDirectory: true)
        let response = try Response(
            statusCode: 200, headers: ["Content-Disposition": #"attachment; filename="../../x.txt""#],
            url: URL(string: "https://example.invalid/a"))
        #expect(try DownloadFileName.destination(in: folder, for: response).path == "/tmp/downloads/x.txt")
    }

    @Test func noNameIsATypedErrorWithoutTheQuery() throws {
        let response = try Response(
            statusCode: 200, headers: ["Content-Disposition": #"attachment; filename="..""#],
            url: URL(string: "https://user:pw@example.invalid/?token=secret"))
        #expect(throws: DownloadError.noFileName("https://example.invalid/?…")) {
            try DownloadFileName.destination(in: URL(fileURLWithPath: "/tmp"), for: response)
        }
    }
}
