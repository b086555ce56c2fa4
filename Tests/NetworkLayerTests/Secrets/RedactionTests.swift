import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a redaction hides, by name.
@Suite("Redaction")
struct RedactionTests {
    @Test(arguments: ["user[password]", "filter[api_key]", "password[]", "a[b][token]", "USER[PASSWORD]"])
    func aBracketedKeyIsHiddenByAnyOfItsComponents(name: String) {
        #expect(Redaction.default.hidesParameter(named: name))
    }

    /// A pre-signed download link grants access until it expires: its session token and
    /// signature were printed by the logger and `Response.description` (found from outside
    /// 2026-11-27).
    @Test func thePartsOfAPreSignedStorageURLThatGrantAccessAreHidden() throws {
        let s3 = try #require(
            URL(
                string: "https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                    + "&X-Amz-Credential=AKIDSECRET1%2F20261127%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261127T000000Z"
                    + "&X-Amz-Expires=900&X-Amz-Security-Token=SESSIONSECRET2&X-Amz-SignedHeaders=host&X-Amz-Signature=SIGSECRET3"))
        let gcs = try #require(
            URL(string: "https://storage.googleapis.com/b/o?X-Goog-Credential=SA-SECRET4%2Fscope&X-Goog-Signature=SIGSECRET5"))
        let shown = Redaction.default.url(s3) + " " + Redaction.default.url(gcs)
        for secret in ["AKIDSECRET1", "SESSIONSECRET2", "SIGSECRET3", "SA-SECRET4", "SIGSECRET5"] {
            #expect(!shown.contains(secret), "\(shown)")
        }
        #expect(shown.contains("X-Amz-Expires=900"))
    }

    @Test(arguments: ["user[name]", "passwords", "filter[key_id]", "tokenizer"])
    func otherKeysAreShown(name: String) {
        #expect(!Redaction.default.hidesParameter(named: name))
    }

    @Test func headersThatHoldURLsShowThemRedacted() {
        let redaction = Redaction.default
        // The replacement inside a URL is percent-encoded, as in every URL the package shows.
        #expect(redaction.header("content-location", "/a?token=t0k&page=2") == "/a?token=%3Credacted%3E&page=2")
        #expect(redaction.header("Referer", "https://u:pw@h.example/") == "https://h.example/")
        #expect(
            redaction.header("Link", #"<https://h.example/p?page=2&key=k3y>; rel="next", </p?page=1>; rel="first""#)
                == #"<https://h.example/p?page=2&key=%3Credacted%3E>; rel="next", </p?page=1>; rel="first""#)
        #expect(redaction.header("Link", "<unterminated?token=t0k") == "<unterminated?token=%3Credacted%3E")
        #expect(redaction.header("Refresh", "5; URL=https://h.example/next?token=t0k") == "5; URL=https://h.example/next?token=%3Credacted%3E")
        #expect(redaction.header("X-Seen", "https://h.example/?token=t0k") == "https://h.example/?token=t0k")
    }

    @Test func bracketedSecretsAreHiddenInFormBodiesQueriesAndCURL() throws {
        var request = URLRequest(url: try #require(URL(string: "https://example.invalid/s?filter%5Bapi_key%5D=SECRET1&q=x")))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("user%5Bpassword%5D=SECRET2&user%5Bname%5D=ann".utf8)
        let curl = request.cURLDescription()
        #expect(!curl.contains("SECRET"), "\(curl)")
        #expect(curl.contains("user%5Bname%5D=ann"))
        #expect(curl.contains("q=x"))
        #expect(!Redaction.default.url(request.url).contains("SECRET1"))
    }

    @Test func aTokenPluginsHeaderIsHiddenByTheLoggerWithoutConfiguration() async throws {
        let lines = LineLog()
        let router = Router<TestEndpoint>(
            transport: StubTransport(StubResponse(statusCode: 200)),
            callbackQueue: DispatchQueue(label: "tests"),
            plugins: [
                AccessTokenPlugin(placement: .header("X-Auth-Token"), token: { "SECRET" }),
                NetworkLoggerPlugin(options: [.headers], sink: { lines.append($0) }),
            ])
        _ = try await router.request(.offline())
        #expect(!lines.all.joined().contains("SECRET"), "\(lines.all)")
        #expect(lines.all.joined().contains("X-Auth-Token: <redacted>"))
        #expect(router.redaction.isCredentialHeader("x-auth-token"))
    }
}

/// Collects log lines from any thread.
final class LineLog: Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A plugin's header with CR or LF fails the request when set through `setHeader(_:for:)`;
/// FoundationNetworking's `setValue` would drop it without a word.
/// A `multipart/form-data` body set as the request's data was shown whole by the `.bodies`
/// logger and `cURLDescription()`, its password part included (helper-30's finding 8,
/// 2026-11-27): form fields of secret names are hidden in every body the package shows.
@Suite("Redaction of multipart bodies")
struct MultipartRedactionTests {
    private func form() -> MultipartFormData {
        var form = MultipartFormData()
        form.append("alice", name: "user")
        form.append("hunter2-PART", name: "password")
        form.append(Data("file with token=zzz".utf8), name: "notes", fileName: "password.txt", mimeType: "text/plain")
        return form
    }

    @Test func aSecretPartIsHiddenInTheCURLDescriptionAndTheOthersKept() throws {
        let form = form()
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/login")))
        request.httpMethod = "POST"
        request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = try form.encode()
        let shown = request.cURLDescription()
        #expect(!shown.contains("hunter2-PART"), "\(shown)")
        #expect(shown.contains("alice"))
        // A part is chosen by its field name, not its file name.
        #expect(shown.contains("file with token=zzz") || shown.contains("file with token=<redacted>"))
        #expect(shown.contains(form.boundary))
    }

    /// What the `.bodies` logger and ``NetworkError/description(includingBody:redaction:)`` show.
    @Test func aSecretPartIsHiddenInAShownBody() throws {
        let form = form()
        let shown = Redaction.default.body(try form.encode(), contentType: form.contentType)
        #expect(!shown.contains("hunter2-PART"), "\(shown)")
        #expect(shown.contains("name=\"password\"\r\n\r\n<redacted>\r\n--\(form.boundary)"), "\(shown)")
    }

    /// A part that is not secret still has its secret JSON members hidden, as the whole body
    /// did before parts were read (GraphQL's multipart `operations`; helper-31, 2026-11-27).
    @Test func aSecretMemberInsideAPartIsStillHidden() throws {
        var form = MultipartFormData()
        form.append(#"{"query": "mutation", "variables": {"password": "hunter2-JSON"}}"#, name: "operations")
        let shown = Redaction.default.body(try form.encode(), contentType: form.contentType)
        #expect(!shown.contains("hunter2-JSON"), "\(shown)")
        #expect(shown.contains("mutation"))
    }

    /// JSON that does not parse whole (here cut short): a secret nested in an object is found,
    /// and a secret's own array or object goes whole.
    @Test func secretsInsideAndAsContainersOfBrokenJSONAreHidden() {
        let text = #"{"variables": {"password": "hunter2-NESTED"}, "token": ["tok-ARRAY-1", {"a": "tok-OBJ-2"}], "next": "#
        let shown = Redaction.default.body(Data(text.utf8), contentType: "text/plain")
        for secret in ["hunter2-NESTED", "tok-ARRAY-1", "tok-OBJ-2"] {
            #expect(!shown.contains(secret), "\(shown)")
        }
        #expect(shown.contains("\"next\""), "\(shown)")
    }

    /// A part's field name is its `name` parameter, whatever a quoted `filename` holds.
    @Test(arguments: [
        #"form-data; filename="x; name=avatar"; name="api_key""#,
        #"form-data; name = "api_key""#,
        #"form-data;name=api_key;filename="a.txt""#,
    ])
    func theFieldNameIsReadFromItsOwnParameter(disposition: String) {
        let body = "--b\r\nContent-Disposition: \(disposition)\r\n\r\nkey-SECRET-42\r\n--b--\r\n"
        let shown = Redaction.default.body(Data(body.utf8), contentType: "multipart/form-data; boundary=b")
        #expect(!shown.contains("key-SECRET-42"), "\(shown)")
    }

    /// A server that repeats a multipart login's password: hidden, as a form's would be.
    @Test func aSecretPartIsHiddenWhereTheServerRepeatsIt() throws {
        let form = form()
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/login")))
        request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = try form.encode()
        let shown = Redaction.default.hidingSecrets(of: request, in: "the password hunter2-PART is too short")
        #expect(!shown.contains("hunter2-PART"), "\(shown)")
    }

    @Test func aBodyThatIsNotMultipartAsItSaysIsShownAsBefore() {
        let text = "password=hunter2-FORM"
        let shown = Redaction.default.body(Data(text.utf8), contentType: "multipart/form-data; boundary=abc")
        #expect(!shown.contains("hunter2-FORM"), "\(shown)")
    }
}

@Suite("Plugin headers")
struct PluginHeaderTests {
    struct Injecting: PluginType {
        let value: String
        func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
            var request = request
            try request.setHeader(value, for: "X-Session")
            return request
        }
    }

    @Test(arguments: ["a\r\nX-Evil: 1", "a\nb", "a\u{0}b"])
    func aValueWithControlCharactersFailsTheRequest(value: String) async {
        let router = Router<TestEndpoint>(
            transport: StubTransport(StubResponse()), callbackQueue: DispatchQueue(label: "tests"), plugins: [Injecting(value: value)])
        await #expect {
            try await router.request(.offline())
        } throws: { error in
            guard case NetworkError.invalidRequest(.invalidHeaderValue(let name)) = error else { return false }
            return name == "X-Session"
        }
    }

    @Test func aValidValueIsSet() async throws {
        let router = Router<TestEndpoint>(
            transport: StubTransport(StubResponse()), callbackQueue: DispatchQueue(label: "tests"), plugins: [Injecting(value: "abc")])
        let response = try await router.request(.offline())
        #expect(response.request.value(forHTTPHeaderField: "X-Session") == "abc")
    }
}
