export default function Page() {
  return <div>search</div>
}
