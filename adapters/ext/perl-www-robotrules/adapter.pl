#!/usr/bin/perl
#! perl-www-robotrules: WWW::RobotRules 6.02 (Debian bookworm libwww-robotrules-perl
#! 6.02-1; the robots.txt rules of libwww-perl's LWP::RobotUA).
#!
#! Profile claimed: rfc9309. The module implements the 1994 robots.txt convention
#! (Disallow only, prefix match); of the two readings this suite scores, the standard one is
#! its nearest claim.
#!
#! The protocol loop (adapters/PROTOCOL.md) is inline: JSON::PP and MIME::Base64 are core
#! Perl. Stdout is duplicated to a private handle for answers and STDOUT is pointed at
#! STDERR, so nothing else can reach the protocol stream; answers are ASCII JSON.
#!
#! Input conventions:
#! - Body: raw bytes as a Perl byte string, as LWP::RobotUA hands it a fetched body;
#!   parse() splits on LF and CR itself and URI escapes any high bytes in rules:
#!   non_utf8_bodies = true.
#! - Agent and URLs: UTF-8 encoded to byte strings (URI then percent-encodes non-ASCII as
#!   UTF-8), so raw non-ASCII URLs are fine.
#! - URLs: rules are stored per host:port and parse() takes the robots.txt URL, allowed()
#!   an absolute URL. As a crawler would, the adapter parses the body once per site in the
#!   request, as <scheme>://<host>/robots.txt of the URL (https://example.com/robots.txt
#!   for paths), and asks allowed() with paths joined onto https://example.com.
#!   allowed() answers 1 or 0; anything else (-1: no rules for that site) is an error.
#! - No sitemaps, crawl-delay, token or robots-url API.
#!
#! Known deviations (probe): no Allow lines and no `*`/`$` wildcards (prefix match in file
#! order); only the first matching record; a BOM hides the first line (a Disallow with no
#! User-agent before it then applies to every agent); agent matched as a substring of the
#! caller's short name; non-http(s) URLs always allowed.
use strict;
use warnings;
use JSON::PP ();
use MIME::Base64 ();
use WWW::RobotRules;

$SIG{PIPE} = 'IGNORE';
open(my $OUT, '>&', \*STDOUT) or die "dup stdout: $!";
open(STDOUT, '>&', \*STDERR) or die "redirect stdout: $!";
binmode($OUT);
binmode(STDIN);
$OUT->autoflush(1);

my $BASE = 'https://example.com';
my $json_in = JSON::PP->new->utf8;
my $json_out = JSON::PP->new->ascii->allow_nonref;

sub reply {
    my ($obj) = @_;
    print {$OUT} $json_out->encode($obj), "\n" or exit 0;
}

sub clean_error {
    my ($e) = @_;
    $e = "$e";
    $e =~ s/\s+\z//;
    return $e;
}

# scheme://authority of an absolute URL, textually; undef for a path.
sub origin_of {
    my ($url) = @_;
    return $1 if $url =~ m{\A([A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*)};
    return undef;
}

sub join_url {
    my ($url) = @_;
    return $url if defined origin_of($url);
    return $BASE . ($url =~ m{\A/} ? $url : "/$url");
}

sub robots_of {
    my ($req) = @_;
    my $b64 = $req->{robots};
    die "bad request: missing 'robots'\n" unless defined $b64 && !ref $b64;
    die "bad request: robots is not valid base64\n"
        unless $b64 =~ m{\A(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\z};
    return MIME::Base64::decode_base64($b64);
}

sub decide {
    my ($req) = @_;
    my $robots = robots_of($req);
    my $agent = $req->{agent};
    die "bad request: 'agent' must be a string\n" unless defined $agent && !ref $agent;
    my $urls = $req->{urls};
    die "bad request: 'urls' must be a list\n" unless ref $urls eq 'ARRAY';
    utf8::encode($agent);
    my $rules = WWW::RobotRules->new($agent);
    my %parsed;
    my @results;
    for my $url (@$urls) {
        my $r = eval {
            die "url is not a string\n" if !defined $url || ref $url;
            my $u = $url;
            utf8::encode($u);
            my $site = origin_of($u) // $BASE;
            unless ($parsed{$site}++) {
                $rules->parse("$site/robots.txt", $robots);
            }
            my $v = $rules->allowed(join_url($u));
            if (defined $v && "$v" eq '1') { +{ verdict => 'allowed' } }
            elsif (defined $v && ("$v" eq '0' || "$v" eq '')) { +{ verdict => 'disallowed' } }
            else { +{ error => 'allowed() returned ' . (defined $v ? $v : 'undef') } }
        };
        push @results, defined $r ? $r : { error => clean_error($@) };
    }
    return { results => \@results };
}

my %hello = (
    name => 'perl-www-robotrules',
    version => "WWW::RobotRules $WWW::RobotRules::VERSION",
    language => 'perl',
    profile => 'rfc9309',
    body => 'bytes',
    protocol => 1,
);

while (defined(my $line = <STDIN>)) {
    next unless $line =~ /\S/;
    my $ok = eval { [ $json_in->decode($line) ] };
    if (!$ok) {
        reply({ id => undef, error => 'bad request: request is not JSON: ' . clean_error($@) });
        next;
    }
    my $req = $ok->[0];
    if (ref $req ne 'HASH') {
        reply({ id => undef, error => 'bad request: request is not a JSON object' });
        next;
    }
    my $id = $req->{id};
    my $op = $req->{op} // '';
    my $answer = eval {
        if ($op eq 'hello') { +{ %hello } }
        elsif ($op eq 'decide') { decide($req) }
        else { +{ unsupported => "op $op" } }
    };
    $answer = { error => clean_error($@) } unless defined $answer;
    reply({ id => $id, %$answer });
}
exit 0;
