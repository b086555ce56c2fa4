import Foundation
import MovieDB
import Testing

/// The models against JSON shaped like TMDB's real answers, awkward records included.
@Suite("Decoding TMDB's JSON")
struct ModelDecodingTests {
    private let decoder = TMDBCoding.makeDecoder()

    /// A page as TMDB sends it: a null poster, an empty release date, a movie without
    /// `genre_ids`, a non-ASCII title, and keys the models do not use (`video`, `dates`).
    private static let awkwardPage = #"""
        {"dates": {"maximum": "2026-12-01", "minimum": "2026-10-19"}, "page": 2, "results": [
          {"adult": false, "backdrop_path": "/b.jpg", "genre_ids": [18, 35], "id": 550, "original_language": "en",
           "original_title": "Fight Club", "overview": "Soap.", "popularity": 61.416, "poster_path": "/p.jpg",
           "release_date": "1999-10-15", "title": "Fight Club", "video": false, "vote_average": 8.4, "vote_count": 26280},
          {"adult": false, "backdrop_path": null, "genre_ids": [28], "id": 2, "original_language": "en",
           "original_title": "No Images", "overview": "", "popularity": 1.5, "poster_path": null,
           "release_date": "2023-02-15", "title": "No Images", "video": false, "vote_average": 6.5, "vote_count": 3},
          {"adult": false, "backdrop_path": "/b3.jpg", "id": 3, "original_language": "en",
           "original_title": "Unreleased", "overview": "", "popularity": 0.6, "poster_path": "/p3.jpg",
           "release_date": "", "title": "Unreleased", "video": false, "vote_average": 0.0, "vote_count": 0},
          {"adult": false, "backdrop_path": "/b4.jpg", "genre_ids": [10749], "id": 4, "original_language": "fr",
           "original_title": "Le Fabuleux Destin d'Amélie Poulain", "overview": "…", "popularity": 30.1,
           "poster_path": "/p4.jpg", "release_date": "2001-04-25", "title": "Amélie 東京 🎬", "video": false,
           "vote_average": 7.9, "vote_count": 11000}
        ], "total_pages": 3, "total_results": 55}
        """#

    @Test("A real-shaped page with nulls, \"\" dates and missing genre_ids decodes completely")
    func awkwardPageDecodes() throws {
        let page = try decoder.decode(Page<Movie>.self, from: Data(Self.awkwardPage.utf8))

        #expect(page.page == 2)
        #expect(page.totalPages == 3)
        #expect(page.totalResults == 55)
        #expect(page.skippedResults == 0)
        #expect(page.results.map(\.title) == ["Fight Club", "No Images", "Unreleased", "Amélie 東京 🎬"])

        let fightClub = page.results[0]
        #expect(fightClub.id == 550)
        #expect(fightClub.year == 1999)
        #expect(fightClub.genreIds == [18, 35])
        #expect(fightClub.voteAverage == 8.4)
        #expect(fightClub.voteCount == 26280)
        #expect(fightClub.posterPath == "/p.jpg")
        #expect(fightClub.originalLanguage == "en")

        #expect(page.results[1].posterPath == nil)
        #expect(page.results[1].backdropPath == nil)
        #expect(page.results[2].releaseDate == "")
        #expect(page.results[2].year == nil)
        #expect(page.results[2].genreIds == [])
        #expect(page.results[3].originalTitle == "Le Fabuleux Destin d'Amélie Poulain")
    }

    @Test("A movie that does not decode is skipped and counted; the rest of the page decodes")
    func oddMovieIsSkippedAndCounted() throws {
        let json = #"""
            {"page": 1, "total_pages": 1, "total_results": 4, "results": [
              {"id": 1, "title": "First", "release_date": "2020-01-01", "vote_average": 5.0, "vote_count": 1},
              {"id": "not a number", "title": "Odd"},
              null,
              {"id": 4, "title": "Last", "release_date": "2021-01-01", "vote_average": 6.0, "vote_count": 2}
            ]}
            """#
        let page = try decoder.decode(Page<Movie>.self, from: Data(json.utf8))

        #expect(page.results.map(\.title) == ["First", "Last"])
        #expect(page.results.map(\.id) == [1, 4])
        #expect(page.skippedResults == 2)
        #expect(page.totalResults == 4)
    }

    @Test("A page without its own fields still fails: then nothing on it can be trusted")
    func pageWithoutTotalsFails() {
        let json = #"{"page": 1, "results": []}"#
        #expect(throws: DecodingError.self) {
            try decoder.decode(Page<Movie>.self, from: Data(json.utf8))
        }
    }

    @Test("Details decode with a null runtime and an empty tagline")
    func detailsDecode() throws {
        let json = #"""
            {"adult": false, "belongs_to_collection": null, "genres": [{"id": 18, "name": "Drama"}, {"id": 53, "name": "Thriller"}],
             "homepage": "", "id": 550, "imdb_id": "tt0137523", "overview": "Soap.", "release_date": "1999-10-15",
             "runtime": null, "status": "Released", "tagline": "", "title": "Fight Club", "vote_average": 8.438, "vote_count": 1}
            """#
        let details = try decoder.decode(MovieDetails.self, from: Data(json.utf8))

        #expect(details.title == "Fight Club")
        #expect(details.year == 1999)
        #expect(details.runtime == nil)
        #expect(details.genres.map(\.name) == ["Drama", "Thriller"])
        #expect(details.imdbId == "tt0137523")
        #expect(details.tagline == "")
        #expect(details.status == "Released")
    }

    @Test("Videos link to YouTube and Vimeo, and to nothing on other sites")
    func videoURLs() throws {
        let json = #"""
            {"id": 550, "results": [
              {"name": "Trailer", "key": "abc123XYZ", "site": "YouTube", "type": "Trailer", "official": true,
               "published_at": "2024-01-10T17:00:00.000Z", "iso_639_1": "en", "size": 1080, "id": "x"},
              {"name": "Teaser", "key": "76979871", "site": "Vimeo", "type": "Teaser"},
              {"name": "Clip", "key": "k", "site": "Dailymotion", "type": "Clip"}
            ]}
            """#
        let list = try decoder.decode(VideoList.self, from: Data(json.utf8))

        #expect(list.id == 550)
        #expect(
            list.results.map(\.url?.absoluteString) == [
                "https://www.youtube.com/watch?v=abc123XYZ", "https://vimeo.com/76979871", nil,
            ])
        #expect(list.results[0].official == true)
        #expect(list.results[0].publishedAt == "2024-01-10T17:00:00.000Z")
        #expect(list.results[1].official == nil)
    }

    @Test(
        "TMDB's error bodies decode",
        arguments: [
            (
                #"{"success":false,"status_code":7,"status_message":"Invalid API key: You must be granted a valid key."}"#,
                7, "Invalid API key: You must be granted a valid key."
            ),
            (
                #"{"success":false,"status_code":34,"status_message":"The resource you requested could not be found."}"#,
                34, "The resource you requested could not be found."
            ),
        ])
    func errorBodies(json: String, statusCode: Int, message: String) throws {
        let error = try decoder.decode(TMDBError.self, from: Data(json.utf8))
        #expect(error.success == false)
        #expect(error.statusCode == statusCode)
        #expect(error.statusMessage == message)
    }

    @Test("A page encodes back to TMDB's shape and decodes to the same value")
    func pageRoundTrips() throws {
        let page = try decoder.decode(Page<Movie>.self, from: Data(Self.awkwardPage.utf8))
        let data = try TMDBCoding.makeEncoder().encode(page)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])

        #expect(object["total_pages"] as? Int == 3)
        #expect(object["skipped_results"] as? Int == 0)
        #expect(try decoder.decode(Page<Movie>.self, from: data) == page)
    }
}
