"""AI usage preferences (draft-ietf-aipref-attach-05 §3.1, draft-ietf-aipref-vocab-07), asked
through the package under the "aipref" profile. Each expectation is the drafts' text.
"""

import pytest

import robots_oracle


def aipref(body):
    return robots_oracle.RobotsTxt(body, "aipref")


def test_the_drafts_example():
    # attach-05 §2's example: every crawler may crawl, and training is not wanted.
    robots = aipref("User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n")
    assert robots.usage("AnyBot", "/page") == {"train-ai": "n", "search": "unknown"}


def test_disallowed_urls_have_no_preferences():
    # §3.1: "no preferences are implied for resources that are disallowed".
    robots = aipref("User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\n")
    assert robots.usage("AnyBot", "/never/x") is None
    assert robots.usage("AnyBot", "/ok") == {"train-ai": "n", "search": "unknown"}


def test_the_most_specific_path_decides():
    # §3.1: the rule with the longest matching path applies.
    robots = aipref(
        "User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n"
    )
    assert robots.usage("AnyBot", "/ai-ok/test") == {"train-ai": "y", "search": "unknown"}
    assert robots.usage("AnyBot", "/other") == {"train-ai": "n", "search": "unknown"}


def test_identical_paths_combine_per_category():
    # §3.1 with vocab §7.1: conflicting preferences for one path: any "n" wins.
    robots = aipref(
        "User-Agent: *\nContent-Usage: /a train-ai=y, search=y\nContent-Usage: /a train-ai=n\n"
    )
    assert robots.usage("AnyBot", "/a") == {"train-ai": "n", "search": "y"}


def test_no_rule_means_unknown():
    assert aipref("User-Agent: *\nAllow: /\n").usage("AnyBot", "/x") == {
        "train-ai": "unknown", "search": "unknown"}


@pytest.mark.parametrize("profile", ["rfc9309", "google"])
def test_other_profiles_read_no_content_usage_rules(profile):
    robots = robots_oracle.RobotsTxt("User-Agent: *\nContent-Usage: train-ai=n\n", profile)
    assert robots.usage("AnyBot", "/x") == {"train-ai": "unknown", "search": "unknown"}


def test_a_refused_url_raises():
    with pytest.raises(ValueError, match="cannot match 'x'"):
        aipref("User-Agent: *\n").usage("AnyBot", "x")
