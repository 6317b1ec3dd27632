#!/usr/bin/env perl
# One-off codemod: comments and test names cite the project's own docs instead of "SPEC §n" (a document
# the repository does not contain) or README sections that moved to docs/. Usage:
#   perl scripts/codemods/cite-docs.pl $(git ls-files '*.ts')
# Rewrites the given files in place, then prints every "SPEC"/"README"/"§" mention left for a human.
use strict;
use utf8;
binmode STDOUT, ":encoding(UTF-8)";
use warnings;

my %SECTION = (
  1 => 'docs/api.md "Errors"',
  2 => 'docs/api.md "Authentication"',
  3 => 'docs/api.md "Money"',
  4 => 'docs/api.md "Dates and time"',
  5 => 'docs/api.md "Add invoice"',
  6 => 'docs/api.md "Add payment"',
  7 => 'docs/api.md "Idempotency"',
  8 => 'docs/api.md "Payment history and pagination"',
  9 => 'docs/api.md "Limits"',
  10 => 'docs/running-locally.md',
);
my %TITLE = map { my $t = $SECTION{$_}; $t =~ s/^docs\/api\.md //; ($_ => $t) } keys %SECTION;

# Exact phrases first (their wording needs more than a section swap), then the generic forms.
my @PHRASES = (
  [qr/SPEC §1: envelopes, status codes/, 'docs/api.md "Envelopes", "Errors" and "Request bodies": envelopes, status codes'],
  [qr/\(SPEC §1, §9\)/, '(docs/api.md "Request bodies", "Limits")'],
  [qr/Order \(SPEC §1\):/, 'Order (docs/api.md "Errors"):'],
  [qr/SPEC §1 field errors/, 'per-field errors (docs/api.md "Errors")'],
  [qr/Every top-level error code of SPEC §1/, 'Every top-level error code (docs/api.md "Errors")'],
  [qr/\(SPEC §1 401, §2\)/, '(docs/api.md "Authentication")'],
  [qr/\(SPEC §1 404 rule, §5, §7, §8\)/, '(docs/api.md "Errors", "Add invoice", "Idempotency", "Payment history and pagination")'],
  [qr/Response envelopes \(SPEC §1\)/, 'Response envelopes (docs/api.md "Envelopes")'],
  [qr/the SPEC §1 envelope/, 'the error envelope (docs/api.md "Envelopes")'],
  [qr/the SPEC §1 error(\s+\*?\s*)envelope/, 'the error$1envelope (docs/api.md "Envelopes")'],
  [qr/Asserts the SPEC §1 error envelope/, 'Asserts the error envelope (docs/api.md "Envelopes")'],
  [qr/the service's error envelope \(SPEC §1\)/, q{the service's error envelope (docs/api.md "Envelopes")}],
  [qr/\(SPEC §1\) instead of/, '(docs/api.md "Errors") instead of'],
  [qr/SPEC §9 limits at their boundaries/, 'The limits of docs/api.md "Limits" at their boundaries'],
  [qr/'SPEC §9 limits'/, q{'limits (docs/api.md "Limits")'}],
  [qr/\(SPEC §2, §10\)/, '(docs/accounts.md)'],
  [qr/\(SPEC §10: the same one as/, '(docs/accounts.md: the same one as'],
  [qr/\(SPEC §6, §7\)/, '(docs/api.md "Add payment", "Idempotency")'],
  [qr/SPEC §3 \(money through the API\), §4 \(due dates\) and §5 \(add invoice\)/,
    'Money, due dates and add invoice through the API (docs/api.md "Money", "Dates and time", "Add invoice")'],
  [qr/SPEC §4 \(payment dates\) and §6 \(add payment\)/,
    'Payment dates and add payment (docs/api.md "Dates and time", "Add payment")'],
  [qr/SPEC §6 and §5 under concurrency/, 'Add payment and add invoice under concurrency (docs/api.md "Add payment", "Add invoice")'],
  [qr/\(SPEC §2: revocation within 60 s\)/, '(docs/api.md "Authentication": revocation within 60 s)'],
  [qr/\(SPEC §2: within 60 s\)/, '(docs/api.md "Authentication": within 60 s)'],
  [qr/\(SPEC §7: 1–255 printable ASCII characters\)/, '(docs/api.md "Idempotency": 1–255 printable ASCII characters)'],
  [qr/\(SPEC §8: ignored otherwise/, '(docs/api.md "Payment history and pagination": ignored otherwise'],
  [qr/the additive fields of SPEC §5/, 'the additive fields of docs/api.md "Add invoice"'],
  [qr/README\.md "Logs, metrics and traces"/, 'docs/deploying.md "Logs, metrics and traces"'],
  [qr/README\.md, section "Using the API"/, 'docs/api.md'],
  [qr/README "Configuration"/, 'docs/deploying.md "Configuration"'],
  [qr/README "Performance"/, 'docs/performance.md'],
  [qr/README "Data design"/, 'docs/data-design.md'],
  [qr/README\.md "Deploying to AWS",(\s+\*\s+)"Functions: bundling, memory and timeout"/, 'docs/deploying.md,$1"What the stack contains, and why"'],
  [qr/see README\.md "Stages"/, 'see docs/deploying.md "Stages"'],
  [qr/the README deploy section/, 'docs/deploying.md'],
  [qr/the performance benchmark of issue #5/, 'the performance benchmark of docs/performance.md'],
);

for my $file (@ARGV) {
  open my $in, '<:encoding(UTF-8)', $file or die "$file: $!";
  local $/;
  my $text = <$in>;
  close $in;
  my $before = $text;
  for my $pair (@PHRASES) {
    my ($pattern, $replacement) = @$pair;
    $text =~ s/$pattern/my @g = ($1 \/\/ '', $2 \/\/ ''); (my $r = $replacement) =~ s{\$(\d)}{$g[$1 - 1]}g; $r/ge;
  }
  # Generic: "SPEC §n" → its docs section.
  $text =~ s/SPEC §(\d+)/$SECTION{$1} \/\/ "SPEC §$1"/ge;
  if ($text ne $before) {
    open my $out, '>:encoding(UTF-8)', $file or die "$file: $!";
    print $out $text;
    close $out;
    print "rewrote $file\n";
  }
  my $n = 0;
  for my $line (split /\n/, $text) {
    $n++;
    print "LEFT $file:$n: $line\n" if $line =~ /SPEC|README|§|[Ii]ssue #?\d/ && $line !~ /README\.md/ && $file !~ /codemods/;
  }
}
