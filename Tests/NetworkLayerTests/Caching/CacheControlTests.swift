import Foundation
import Testing
@testable import NetworkLayer

@Suite("Cache-Control parsing")
struct CacheControlTests {
    @Test func readsEveryDirectiveAPrivateCacheUses() {
        let directives = CacheControl("max-age=60, no-cache, no-store, private, public, must-revalidate, immutable")
        #expect(directives.maxAge == 60)
        #expect(directives.noCache && directives.noStore && directives.isPrivate && directives.isPublic)
        #expect(directives.mustRevalidate && directives.immutable)
    }

    @Test func namesAreCaseInsensitiveAndSpacesTolerated() {
        let directives = CacheControl("  MAX-AGE = 30 ,No-Store")
        #expect(directives.maxAge == 30)
        #expect(directives.noStore)
    }

    @Test func quotedValuesAreAccepted() {
        #expect(CacheControl(#"max-age="120""#).maxAge == 120)
    }

    @Test func commasInsideQuotesDoNotSplitDirectives() {
        let directives = CacheControl(#"no-cache="Set-Cookie, Authorization", max-age=5"#)
        #expect(directives.noCache)
        #expect(directives.maxAge == 5)
    }

    @Test func unknownDirectivesAreIgnored() {
        let directives = CacheControl("community=\"UCI\", x-foo, max-age=10, stale-while-revalidate=30")
        #expect(directives.maxAge == 10)
        #expect(!directives.noStore && !directives.noCache)
    }

    @Test func sharedMaxAgeIsReadButIsNotMaxAge() {
        let directives = CacheControl("s-maxage=600")
        #expect(directives.sharedMaxAge == 600)
        #expect(directives.maxAge == nil)
    }

    @Test(arguments: ["max-age=abc", "max-age=", "max-age", "max-age=-5", "max-age=1.5", #"max-age="60"#])
    func malformedMaxAgeMeansStale(value: String) {
        #expect(CacheControl(value).maxAge == 0)
    }

    @Test func conflictingMaxAgesMeanStale() {
        #expect(CacheControl("max-age=60, max-age=120").maxAge == 0)
        #expect(CacheControl("max-age=60, max-age=60").maxAge == 60)
    }

    @Test func hugeMaxAgeIsCappedAtTwoToThe31() {
        #expect(CacheControl("max-age=99999999999999999999999").maxAge == 2_147_483_648)
    }

    @Test func requestDirectives() {
        let directives = CacheControl("max-stale, min-fresh=20, only-if-cached")
        #expect(directives.maxStale == Int.max)
        #expect(directives.minFresh == 20)
        #expect(directives.onlyIfCached)
        #expect(CacheControl("max-stale=30").maxStale == 30)
        #expect(CacheControl("max-stale=soon").maxStale == 0)
    }

    @Test func emptyOrMissingHeaderHasNoDirective() {
        #expect(CacheControl(nil) == CacheControl())
        #expect(CacheControl(" , ,") == CacheControl())
    }
}
