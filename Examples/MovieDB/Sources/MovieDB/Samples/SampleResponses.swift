// swift-format-ignore-file
// TMDB answers kept as captured, one JSON record per line (longer than any line length):
// data, not code, so the formatter leaves this file alone.
/// TMDB responses bundled with the example, so that it runs with no network and no key.
///
/// Shaped exactly like TMDB's answers (captured and trimmed, ids and titles are real) and
/// including the records real clients trip over: `poster_path: null`, `release_date: ""`, a
/// movie without `genre_ids`, non-ASCII titles. Which sample answers which endpoint is decided
/// in `MovieApi+SampleData.swift`.
enum SampleResponses {
    /// `GET movie/popular?page=1`. Paper Boats has no images; the untitled Villeneuve project
    /// has no release date and no `genre_ids` key.
    static let popular = #"""
    {
      "page": 1,
      "results": [
        {"adult": false, "backdrop_path": "/hZkgoQYus5vegHoetLkCJzb17zJ.jpg", "genre_ids": [18], "id": 550,
         "original_language": "en", "original_title": "Fight Club",
         "overview": "A ticking-time-bomb insomniac and a slippery soap salesman channel primal male aggression into a shocking new form of therapy. Their concept catches on, with underground \"fight clubs\" forming in every town, until an eccentric gets in the way and ignites an out-of-control spiral toward oblivion.",
         "popularity": 73.433, "poster_path": "/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg", "release_date": "1999-10-15",
         "title": "Fight Club", "video": false, "vote_average": 8.438, "vote_count": 29842},
        {"adult": false, "backdrop_path": "/8ZTVqvKDQ8emSGUEMjsS4yHAwrp.jpg", "genre_ids": [28, 878, 12], "id": 27205,
         "original_language": "en", "original_title": "Inception",
         "overview": "Cobb, a skilled thief who commits corporate espionage by infiltrating the subconscious of his targets is offered a chance to regain his old life as payment for a task considered to be impossible: \"inception\", the implantation of another person's idea into a target's subconscious.",
         "popularity": 83.952, "poster_path": "/oYuLEt3zVCKq57qu2F8dT7NIa6f.jpg", "release_date": "2010-07-15",
         "title": "Inception", "video": false, "vote_average": 8.369, "vote_count": 36712},
        {"adult": false, "backdrop_path": "/xJHokMbljvjADYdit5fK5VQsXEG.jpg", "genre_ids": [12, 18, 878], "id": 157336,
         "original_language": "en", "original_title": "Interstellar",
         "overview": "The adventures of a group of explorers who make use of a newly discovered wormhole to surpass the limitations on human space travel and conquer the vast distances involved in an interstellar voyage.",
         "popularity": 140.241, "poster_path": "/gEU2QniE6E77NI6lCU6MxlNBvIx.jpg", "release_date": "2014-11-05",
         "title": "Interstellar", "video": false, "vote_average": 8.417, "vote_count": 35481},
        {"adult": false, "backdrop_path": "/nMKdUUepR0i5zn0y1T4CsSB5chy.jpg", "genre_ids": [18, 28, 80, 53], "id": 155,
         "original_language": "en", "original_title": "The Dark Knight",
         "overview": "Batman raises the stakes in his war on crime. With the help of Lt. Jim Gordon and District Attorney Harvey Dent, Batman sets out to dismantle the remaining criminal organizations that plague the streets.",
         "popularity": 94.127, "poster_path": "/qJ2tW6WMUDux911r6m7haRef0WH.jpg", "release_date": "2008-07-16",
         "title": "The Dark Knight", "video": false, "vote_average": 8.516, "vote_count": 32930},
        {"adult": false, "backdrop_path": "/6oaL4DP75yABrd5EbC4H2zq5ghc.jpg", "genre_ids": [16, 10751, 14], "id": 129,
         "original_language": "ja", "original_title": "千と千尋の神隠し",
         "overview": "A young girl, Chihiro, becomes trapped in a strange new world of spirits. When her parents undergo a mysterious transformation, she must call upon the courage she never knew she had to free her family.",
         "popularity": 84.201, "poster_path": "/39wmItIWsg5sZMyRUHLkWBcuVCM.jpg", "release_date": "2001-07-20",
         "title": "Spirited Away", "video": false, "vote_average": 8.536, "vote_count": 16893},
        {"adult": false, "backdrop_path": "/yAwG6qDFyKzXn8NPwdBZsHhXTTD.jpg", "genre_ids": [35, 10749], "id": 194,
         "original_language": "fr", "original_title": "Le Fabuleux Destin d'Amélie Poulain",
         "overview": "At a tiny Parisian café, the adorable yet painfully shy Amélie accidentally discovers a gift for helping others. Soon Amelie is spending her days as a matchmaker, guardian angel, and all-around do-gooder.",
         "popularity": 30.871, "poster_path": "/nSxDa3M9aMvGVLoItzWTepQ5h5d.jpg", "release_date": "2001-04-25",
         "title": "Amélie", "video": false, "vote_average": 7.9, "vote_count": 11012},
        {"adult": false, "backdrop_path": null, "genre_ids": [18], "id": 1299652,
         "original_language": "en", "original_title": "Paper Boats",
         "overview": "Two estranged brothers sail their late father's boat down the Mississippi to scatter his ashes.",
         "popularity": 12.504, "poster_path": null, "release_date": "2025-02-14",
         "title": "Paper Boats", "video": false, "vote_average": 6.2, "vote_count": 14},
        {"adult": false, "backdrop_path": null, "id": 1316092,
         "original_language": "en", "original_title": "Untitled Denis Villeneuve Project",
         "overview": "",
         "popularity": 9.113, "poster_path": null, "release_date": "",
         "title": "Untitled Denis Villeneuve Project", "video": false, "vote_average": 0.0, "vote_count": 0}
      ],
      "total_pages": 1,
      "total_results": 8
    }
    """#

    /// `GET movie/now_playing?page=1`, with the `dates` object TMDB adds to this list.
    static let nowPlaying = #"""
    {
      "dates": {"maximum": "2025-01-22", "minimum": "2024-12-11"},
      "page": 1,
      "results": [
        {"adult": false, "backdrop_path": "/xOMo8BRK7PfcJv9JCnx7s5hj0PX.jpg", "genre_ids": [878, 12], "id": 693134,
         "original_language": "en", "original_title": "Dune: Part Two",
         "overview": "Follow the mythic journey of Paul Atreides as he unites with Chani and the Fremen while on a path of revenge against the conspirators who destroyed his family.",
         "popularity": 211.554, "poster_path": "/1pdfLvkbY9ohJlCjQH2CZjjYVvJ.jpg", "release_date": "2024-02-27",
         "title": "Dune: Part Two", "video": false, "vote_average": 8.152, "vote_count": 6912},
        {"adult": false, "backdrop_path": "/stKGOm8UyhuLPR9sZLjs5AkmncA.jpg", "genre_ids": [16, 10751, 12, 35, 18], "id": 1022789,
         "original_language": "en", "original_title": "Inside Out 2",
         "overview": "Teenager Riley's mind headquarters is undergoing a sudden demolition to make room for something entirely unexpected: new Emotions!",
         "popularity": 175.87, "poster_path": "/vpnVM9B6NMmQpWeZvzLvDESb2QY.jpg", "release_date": "2024-06-11",
         "title": "Inside Out 2", "video": false, "vote_average": 7.6, "vote_count": 5433},
        {"adult": false, "backdrop_path": "/by8z9Fe8y7p4jo2YlW2SZDnptyT.jpg", "genre_ids": [28, 35, 878], "id": 533535,
         "original_language": "en", "original_title": "Deadpool & Wolverine",
         "overview": "A listless Wade Wilson toils away in civilian life with his days as the morally flexible mercenary, Deadpool, behind him. But when his homeworld faces an existential threat, Wade must reluctantly suit-up again with an even more reluctant Wolverine.",
         "popularity": 160.329, "poster_path": "/8cdWjvZQUExUUTzyp4t6EDMubfO.jpg", "release_date": "2024-07-24",
         "title": "Deadpool & Wolverine", "video": false, "vote_average": 7.7, "vote_count": 6321},
        {"adult": false, "backdrop_path": "/uVlUu174iiKhsUGqnOSy46eIIMU.jpg", "genre_ids": [18, 14, 10749], "id": 402431,
         "original_language": "en", "original_title": "Wicked",
         "overview": "In the land of Oz, ostracized and misunderstood green-skinned Elphaba is forced to share a room with the popular aristocrat Glinda at Shiz University, and the two's unlikely friendship is tested as they begin to fulfill their respective destinies.",
         "popularity": 154.012, "poster_path": "/xDGbZ0JJ3mYaGKy4Nzd9Kph6M9L.jpg", "release_date": "2024-11-20",
         "title": "Wicked", "video": false, "vote_average": 7.2, "vote_count": 1290},
        {"adult": false, "backdrop_path": "/4zlOPT9CrtIX05bBIkYxNZsm5zN.jpg", "genre_ids": [16, 878, 10751], "id": 1184918,
         "original_language": "en", "original_title": "The Wild Robot",
         "overview": "After a shipwreck, an intelligent robot called Roz is stranded on an uninhabited island. To survive the harsh environment, Roz bonds with the island's animals and cares for an orphaned baby goose.",
         "popularity": 139.445, "poster_path": "/wTnV3PCVW5O92JMrFvvrRcV39RU.jpg", "release_date": "2024-09-12",
         "title": "The Wild Robot", "video": false, "vote_average": 8.4, "vote_count": 3050},
        {"adult": false, "backdrop_path": "/4cp40IyTpFfsT2IoAIvCAr3EpiS.jpg", "genre_ids": [18, 35, 10749], "id": 1064213,
         "original_language": "en", "original_title": "Anora",
         "overview": "A young sex worker from Brooklyn gets her chance at a Cinderella story when she meets and impulsively marries the son of an oligarch.",
         "popularity": 98.261, "poster_path": "/7MrgIUeq0DD2iF7GR6wqJfYZNeC.jpg", "release_date": "2024-10-14",
         "title": "Anora", "video": false, "vote_average": 7.1, "vote_count": 870},
        {"adult": false, "backdrop_path": "/fkuRgFlTuBWbDgQeBlOE4y5HYdv.jpg", "genre_ids": [80, 10402, 18], "id": 974950,
         "original_language": "fr", "original_title": "Emilia Pérez",
         "overview": "Rita, an underrated lawyer working for a large law firm more interested in getting criminals out of jail than bringing them to justice, is hired by the leader of a feared cartel.",
         "popularity": 64.12, "poster_path": "/2lUYbD2C3XSuwqMUbDVDQuz9mqz.jpg", "release_date": "2024-08-21",
         "title": "Emilia Pérez", "video": false, "vote_average": 6.4, "vote_count": 902},
        {"adult": false, "backdrop_path": "/8LJJjLjAzAwXS40S5mx79PJ2jSs.jpg", "genre_ids": [18, 36], "id": 1000837,
         "original_language": "pt", "original_title": "Ainda Estou Aqui",
         "overview": "A woman married to a former politician during the military dictatorship in Brazil is forced to reinvent herself and chart a new course for her family after a violent and arbitrary act.",
         "popularity": 45.733, "poster_path": "/gZnsMbhCvhzAQlKaVpeFRHYjGyb.jpg", "release_date": "2024-11-07",
         "title": "I'm Still Here", "video": false, "vote_average": 8.0, "vote_count": 611}
      ],
      "total_pages": 1,
      "total_results": 8
    }
    """#

    /// `GET configuration`: where images live and in which sizes (trimmed: `change_keys` left out).
    static let configuration = #"""
    {"images": {"base_url": "http://image.tmdb.org/t/p/", "secure_base_url": "https://image.tmdb.org/t/p/",
                "backdrop_sizes": ["w300", "w780", "w1280", "original"],
                "logo_sizes": ["w45", "w92", "w154", "w185", "w300", "w500", "original"],
                "poster_sizes": ["w92", "w154", "w185", "w342", "w500", "w780", "original"],
                "profile_sizes": ["w45", "w185", "h632", "original"],
                "still_sizes": ["w92", "w185", "w300", "original"]}}
    """#

    /// `GET movie/550` and `GET movie/27205`, keyed by id.
    static let details: [Int: String] = [
        550: #"""
        {"adult": false, "backdrop_path": "/hZkgoQYus5vegHoetLkCJzb17zJ.jpg", "belongs_to_collection": null,
         "budget": 63000000, "genres": [{"id": 18, "name": "Drama"}],
         "homepage": "http://www.foxmovies.com/movies/fight-club", "id": 550, "imdb_id": "tt0137523",
         "origin_country": ["US"], "original_language": "en", "original_title": "Fight Club",
         "overview": "A ticking-time-bomb insomniac and a slippery soap salesman channel primal male aggression into a shocking new form of therapy. Their concept catches on, with underground \"fight clubs\" forming in every town, until an eccentric gets in the way and ignites an out-of-control spiral toward oblivion.",
         "popularity": 73.433, "poster_path": "/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg",
         "production_companies": [{"id": 508, "logo_path": "/7cxRWzi4LsVm4Utfpr1hfARNurT.png", "name": "Regency Enterprises", "origin_country": "US"},
                                  {"id": 711, "logo_path": "/tEiIH5QesdheJmDAqQwvtN60727.png", "name": "Fox 2000 Pictures", "origin_country": "US"}],
         "production_countries": [{"iso_3166_1": "US", "name": "United States of America"}],
         "release_date": "1999-10-15", "revenue": 100853753, "runtime": 139,
         "spoken_languages": [{"english_name": "English", "iso_639_1": "en", "name": "English"}],
         "status": "Released", "tagline": "Mischief. Mayhem. Soap.", "title": "Fight Club", "video": false,
         "vote_average": 8.438, "vote_count": 29842}
        """#,
        27205: #"""
        {"adult": false, "backdrop_path": "/8ZTVqvKDQ8emSGUEMjsS4yHAwrp.jpg", "belongs_to_collection": null,
         "budget": 160000000, "genres": [{"id": 28, "name": "Action"}, {"id": 878, "name": "Science Fiction"}, {"id": 12, "name": "Adventure"}],
         "homepage": "https://www.warnerbros.com/movies/inception", "id": 27205, "imdb_id": "tt1375666",
         "origin_country": ["US", "GB"], "original_language": "en", "original_title": "Inception",
         "overview": "Cobb, a skilled thief who commits corporate espionage by infiltrating the subconscious of his targets is offered a chance to regain his old life as payment for a task considered to be impossible: \"inception\", the implantation of another person's idea into a target's subconscious.",
         "popularity": 83.952, "poster_path": "/oYuLEt3zVCKq57qu2F8dT7NIa6f.jpg",
         "production_companies": [{"id": 923, "logo_path": "/8M99Dkt23MjQMTTWukq4m5XsEuo.png", "name": "Legendary Pictures", "origin_country": "US"},
                                  {"id": 9996, "logo_path": "/3tvBqYsBhxWeHlu62SIJ1el93O7.png", "name": "Syncopy", "origin_country": "GB"}],
         "production_countries": [{"iso_3166_1": "GB", "name": "United Kingdom"}, {"iso_3166_1": "US", "name": "United States of America"}],
         "release_date": "2010-07-15", "revenue": 825532764, "runtime": 148,
         "spoken_languages": [{"english_name": "English", "iso_639_1": "en", "name": "English"}],
         "status": "Released", "tagline": "Your mind is the scene of the crime.", "title": "Inception", "video": false,
         "vote_average": 8.369, "vote_count": 36712}
        """#,
    ]

    /// `GET movie/{id}/videos`: a YouTube trailer and a Vimeo featurette. The same two videos
    /// answer for every id, with that id.
    static func videos(id: Int) -> String {
        #"""
        {
          "id": \#(id),
          "results": [
            {"iso_639_1": "en", "iso_3166_1": "US", "name": "Official Trailer", "key": "BdJKm16Co6M",
             "site": "YouTube", "size": 1080, "type": "Trailer", "official": true,
             "published_at": "2014-10-02T19:20:22.000Z", "id": "5c9294240e0a267cd516835f"},
            {"iso_639_1": "en", "iso_3166_1": "US", "name": "Behind the Scenes", "key": "76979871",
             "site": "Vimeo", "size": 720, "type": "Featurette", "official": false,
             "published_at": "2013-11-02T09:30:00.000Z", "id": "5c92943a9251416d5b1bc9f4"}
          ]
        }
        """#
    }

    /// TMDB's movie genres (`GET genre/movie/list`), to name the genres of movies that have no
    /// details sample of their own.
    static let genreNames: [Int: String] = [
        28: "Action", 12: "Adventure", 16: "Animation", 35: "Comedy", 80: "Crime", 99: "Documentary",
        18: "Drama", 10751: "Family", 14: "Fantasy", 36: "History", 27: "Horror", 10402: "Music",
        9648: "Mystery", 10749: "Romance", 878: "Science Fiction", 10770: "TV Movie", 53: "Thriller",
        10752: "War", 37: "Western",
    ]
}
